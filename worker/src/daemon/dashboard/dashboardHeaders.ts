/**
 * Sent with every dashboard page: its stylesheet and script come from this worker only,
 * nothing inline runs, forms post only here, and no other site may frame it.
 */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
	'content-security-policy':
		"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	'referrer-policy': 'no-referrer',
	'x-content-type-options': 'nosniff',
	'cache-control': 'no-store',
};
