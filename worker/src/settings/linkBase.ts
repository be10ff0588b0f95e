/**
 * Why a link base cannot stand before `/{token}` in a text, or undefined when it can: an
 * absolute http(s) URL with no query or fragment, such as `https://go.example.com` or
 * `https://worker.example.com/l`.
 */
export function linkBaseProblem(value: string): string | undefined {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return `must be an absolute http or https URL such as https://go.example.com (got "${value}")`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return `must be an http or https URL (got "${value}")`;
	if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#'))
		return `must have no query or fragment: the token follows it as a path (got "${value}")`;
	if (url.username !== '' || url.password !== '')
		return `must hold no user name or password (got "${value}")`;
	return undefined;
}

/** The path the worker answers a link base's tokens under: `''` for a domain of its own, `/l` for `{publicUrl}/l`. */
export function linkBasePath(value: string): string {
	return new URL(value).pathname.replace(/\/+$/, '');
}
