import type { IDataObject } from 'n8n-workflow';
import { isPlainObject } from '../../../../api';
import { fieldDisplayName } from './fieldDisplayName';

/** One offending field: its API path, its own code and sentence, and what was sent in it. */
export interface FieldError extends IDataObject {
	FieldName: string;
	ErrorCode: string;
	Message: string;
}

// A password is never echoed into an output item or an error, whatever was wrong with it.
const SECRET = /password/i;

/** The value at an API field path such as `SipTrunkIpAddresses[0].IpAddress`, or undefined. */
export function valueAt(body: unknown, path: string): unknown {
	let value: unknown = body;
	for (const step of path.split('.')) {
		const match = /^([^[\]]+)((?:\[\d+\])*)$/.exec(step);
		if (!match) return undefined;
		value = isPlainObject(value) ? value[match[1]] : undefined;
		for (const index of match[2].match(/\d+/g) ?? [])
			value = Array.isArray(value) ? value[Number(index)] : undefined;
	}
	return value;
}

/**
 * Each field once, with its first code and sentence (a field the provider or api/ faults
 * twice keeps the first), and the value the request held in it when there is one.
 */
export function fieldErrors(
	errors: Array<{ FieldName?: string; ErrorCode?: string; Message?: string }>,
	sent?: unknown,
): FieldError[] {
	const out = new Map<string, FieldError>();
	for (const e of errors) {
		const name = e.FieldName || 'body';
		if (out.has(name)) continue;
		const entry: FieldError = {
			FieldName: name,
			ErrorCode: e.ErrorCode ?? '',
			Message: e.Message || e.ErrorCode || '',
		};
		const value = name === 'body' || SECRET.test(name) ? undefined : valueAt(sent, name);
		if (value !== undefined) entry.Value = value as IDataObject[string];
		out.set(name, entry);
	}
	return [...out.values()];
}

/** "To: INVALID_PHONENUMBER_FORMAT; Property SID: FIELD_REQUIRED": each field as the node shows it, with its own code. */
export function titleFields(errors: FieldError[]): string {
	return [...new Set(errors.map((e) => `${fieldDisplayName(e.FieldName)}: ${e.ErrorCode}`))].join(
		'; ',
	);
}
