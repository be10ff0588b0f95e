import type { IDataObject } from 'n8n-workflow';

export const SECRET_QUERY_PARAMETER = 'secret';
export const SECRET_HEADER = 'x-cloudtel-secret';

function first(value: unknown): string | undefined {
	const v = Array.isArray(value) ? value[0] : value;
	return typeof v === 'string' ? v : undefined;
}

/** Compares without returning early, so timing does not reveal how much of a guess was right. */
function sameText(a: string, b: string): boolean {
	let diff = a.length ^ b.length;
	for (let i = 0; i < Math.max(a.length, b.length); i++)
		diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
	return diff === 0;
}

/**
 * The provider signs nothing (interface.md), so the secret travels in the callback URL
 * the user gives it (?secret=...), or in a header when a proxy adds one.
 */
export function secretMatches(
	expected: string,
	query: IDataObject,
	headers: Record<string, unknown>,
): boolean {
	const given = first(query[SECRET_QUERY_PARAMETER]) ?? first(headers[SECRET_HEADER]);
	return given !== undefined && sameText(given, expected);
}
