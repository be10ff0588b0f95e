export type CallbackRoute = 'receipts' | 'replies';

/**
 * The provider lets a sender name a callback URL and nothing else: no header, no
 * signature (interface.md). The shared secret therefore travels in the URL's path, where
 * it also survives the query parameters a GET callback adds.
 */
export function callbackUrl(publicUrl: string, secret: string, route: CallbackRoute): string {
	return `${publicUrl.replace(/\/+$/, '')}/callbacks/${encodeURIComponent(secret)}/${route}`;
}

const ROUTE = /(?:^|\/)callbacks\/(?:([^/]*)\/)?(receipts|replies)\/?$/;

/**
 * The route and the secret a request path carries. Matched at the end of the path, so a
 * public URL behind a proxy prefix (https://host/hooks/worker) reaches the same routes.
 */
export function readCallbackPath(
	pathname: string,
): { secret: string; route: CallbackRoute } | undefined {
	const m = ROUTE.exec(pathname);
	if (!m) return undefined;
	try {
		return { secret: decodeURIComponent(m[1] ?? ''), route: m[2] as CallbackRoute };
	} catch {
		return { secret: '', route: m[2] as CallbackRoute };
	}
}
