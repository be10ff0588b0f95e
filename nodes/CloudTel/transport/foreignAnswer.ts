/**
 * What answered when it was not CloudTel's API: most often a Base URL pointing at another
 * web server (n8n itself on :5678 answers every GET with its editor's HTML page, status 200).
 * Undefined when the answer may be CloudTel's.
 */
export function foreignAnswer(
	statusCode: number,
	contentType: unknown,
	body: unknown,
): string | undefined {
	const type = String(contentType ?? '').toLowerCase();
	const text = typeof body === 'string' ? body.trim() : undefined;
	if (
		type.includes('text/html') ||
		(text !== undefined && /^<(!doctype|html|head|body|\?xml)/i.test(text))
	) {
		return `an HTML page (HTTP ${statusCode}), not CloudTel's API`;
	}
	return undefined;
}

/** The one sentence every "wrong place" error ends with, naming the Base URL in use. */
export function checkBaseUrl(baseUrl: string): string {
	return `check the Base URL of the CloudTel API credential (now "${baseUrl}"): it must be the root of the CloudTel API your account uses`;
}

/** The code of a network failure (ECONNREFUSED, ENOTFOUND, ERR_INVALID_URL...), wherever the HTTP client put it. */
export function networkCode(error: unknown): string | undefined {
	const e = error as
		| { code?: unknown; cause?: { code?: unknown }; context?: { code?: unknown } }
		| undefined;
	const code = e?.code ?? e?.cause?.code ?? e?.context?.code;
	return typeof code === 'string' && code !== '' ? code : undefined;
}
