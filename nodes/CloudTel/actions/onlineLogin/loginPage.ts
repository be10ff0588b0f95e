import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../../../../api';

export interface LoginPage {
	logins: IDataObject[];
	nextPageToken: string;
	totalCount?: number;
}

/** A page of the list, read leniently: the wrapper may be missing, as may the token. */
export function readLoginPage(body: unknown): LoginPage {
	if (Array.isArray(body)) return { logins: body as IDataObject[], nextPageToken: '' };
	if (!isPlainObject(body)) return { logins: [], nextPageToken: '' };
	const logins = Array.isArray(body.OnlineLogins) ? (body.OnlineLogins as IDataObject[]) : [];
	const nextPageToken = typeof body.NextPageToken === 'string' ? body.NextPageToken : '';
	const totalCount = typeof body.TotalCount === 'number' ? body.TotalCount : undefined;
	return { logins, nextPageToken, totalCount };
}
