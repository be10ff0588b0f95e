import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../../api';
import { SECRET_QUERY_PARAMETER } from './secret';

/**
 * The callback's fields: query parameters for GET, the JSON body for POST (or the query
 * when a POST carries none), without the secret so it never reaches workflow data.
 */
export function readPayload(method: string, query: IDataObject, body: unknown): unknown {
	const source =
		method.toUpperCase() === 'GET'
			? query
			: isPlainObject(body) && Object.keys(body).length > 0
				? body
				: Array.isArray(body)
					? body
					: query;
	if (!isPlainObject(source)) return source;
	return Object.fromEntries(
		Object.entries(source).filter(([key]) => key !== SECRET_QUERY_PARAMETER),
	);
}
