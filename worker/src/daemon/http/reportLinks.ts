import { createHmac } from 'node:crypto';
import { secretMatches } from './secretMatches';

/** How long a link signed for a page opened with the token stays good. */
export const REPORT_LINK_SECONDS = 15 * 60;

/**
 * A report page's link that opens it without the token until `expires` (Unix seconds): the
 * token itself never goes into a URL, where browsers' histories, proxies' logs and the
 * Referer header would keep it.
 */
export function signReportPath(token: string, path: string, expires: number): string {
	const signature = createHmac('sha256', token).update(`${path}\n${expires}`).digest('base64url');
	return `${path}?expires=${expires}&signature=${signature}`;
}

/** The link's expiry when it is one signed for this path and not yet past; else undefined. */
export function signedLinkExpiry(token: string, url: URL, nowSeconds: number): number | undefined {
	const expires = url.searchParams.get('expires') ?? '';
	const given = url.searchParams.get('signature') ?? '';
	if (!/^\d{1,12}$/.test(expires) || Number(expires) < nowSeconds) return undefined;
	const wanted = new URL(
		signReportPath(token, url.pathname, Number(expires)),
		'http://x',
	).searchParams.get('signature')!;
	return secretMatches(given, wanted) ? Number(expires) : undefined;
}
