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

/** A campaign's page: the report in it keeps its inline styles and SVG (reportHtml). */
export const CAMPAIGN_PAGE_HEADERS: Readonly<Record<string, string>> = {
	...DASHBOARD_HEADERS,
	'content-security-policy': DASHBOARD_HEADERS['content-security-policy'].replace(
		"style-src 'self'",
		"style-src 'self' 'unsafe-inline'",
	),
};
