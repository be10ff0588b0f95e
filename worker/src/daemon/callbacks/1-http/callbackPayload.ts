/**
 * The raw fields of a callback: query parameters for GET (contract.md), a JSON body for
 * POST, or a form body, which some providers send instead.
 */
export function callbackPayload(
	method: string,
	url: URL,
	contentType: string | undefined,
	body: Buffer,
): { ok: true; raw: unknown } | { ok: false; error: string } {
	if (method === 'GET') return { ok: true, raw: Object.fromEntries(url.searchParams) };
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	const text = body.toString('utf8');
	if (type === 'application/x-www-form-urlencoded')
		return { ok: true, raw: Object.fromEntries(new URLSearchParams(text)) };
	try {
		return { ok: true, raw: JSON.parse(text) };
	} catch (error) {
		return { ok: false, error: `the body is not JSON: ${(error as Error).message}` };
	}
}
