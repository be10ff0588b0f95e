import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a POST comes from a page of this worker, as the browser tells it: Sec-Fetch-Site,
 * else Origin against Host. A form on another site is refused even with the cookie (which
 * SameSite=Strict already keeps back). A client that sends neither is no browser: the
 * session's form token alone decides.
 */
export function sameOrigin(headers: IncomingHttpHeaders): boolean {
	const site = headers['sec-fetch-site'];
	if (site !== undefined) return site === 'same-origin';
	const origin = headers.origin;
	if (origin === undefined) return true;
	try {
		return new URL(origin).host === headers.host;
	} catch {
		// `Origin: null`, from a sandboxed frame or a redirect across sites.
		return false;
	}
}
