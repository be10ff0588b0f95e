import type { IncomingMessage } from 'node:http';
import { bearerOf } from './bearer';
import type { Dashboard } from '../dashboard/dashboard';
import { accountForm } from '../dashboard/accountForm';
import { campaignPage } from '../dashboard/campaignPage';
import { CAMPAIGN_PAGE_HEADERS, DASHBOARD_HEADERS } from '../dashboard/dashboardHeaders';
import { controlForms } from '../dashboard/controlForms';
import type { DashboardRow } from '../dashboard/dashboardRow';
import { dashboardHtml } from '../dashboard/dashboardHtml';
import { readCampaignReport } from '../../campaignReport/campaignReport';
import type * as ReportHtml from '../../campaignReport/reportHtml';
import type { LedgerReader } from '../../storage/ledger';
import { REPORT_LINK_SECONDS, signedLinkExpiry, signReportPath } from './reportLinks';
import { type Role, roleOfToken, type Tokens } from './dashboardSession';
import { runsOfCampaign } from '../callbacks/4-replies/runName';

export interface ReportResponse {
	status: number;
	type: string;
	body: string;
	/** Why it was refused, for the log's count of refusals. */
	refused?: string;
	/** A dashboard page's own headers (its policy lets it load the worker's stylesheet and script); else REPORT_HEADERS. */
	headers?: Readonly<Record<string, string>>;
}

/**
 * Sent with every report answer. The pages hold no script and load nothing (reportHtml):
 * the policy lets them keep only their inline styles and SVG, so that nothing injected
 * into one could run or send its figures anywhere; no Referer carries a link away.
 */
export const REPORT_HEADERS: Readonly<Record<string, string>> = {
	'content-security-policy':
		"default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	'referrer-policy': 'no-referrer',
	'x-content-type-options': 'nosniff',
	'cache-control': 'no-store',
};

/** /, /campaigns, /campaigns.json, /campaigns/SEGMENT: a campaign name may itself end in .json. */
const PATH = /^\/(?:campaigns(?:(\.json)|\/([^/]+))?\/?)?$/;

/** After a control (`?done=pause&campaign=NAME`): what it did, in fixed words. */
function noticeOf(url: URL): string | undefined {
	const done = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' }[
		url.searchParams.get('done') ?? ''
	];
	const name = url.searchParams.get('campaign');
	return done && name ? `${name}: ${done}.` : undefined;
}

/** The config's price (limits.pricePerSegment) and its unit (currency), for the reports' costs. */
export interface ReportFigures {
	pricePerSegment?: number;
	currency?: string;
}

function json(status: number, body: unknown, refused?: string): ReportResponse {
	return { status, type: 'application/json', body: JSON.stringify(body), refused };
}

/** Who asks: the worker's tokens, and the signed-in session the request's cookie holds, if any. */
export interface ReportAccess {
	tokens: Tokens;
	session?: { role: Role; csrf: string };
}

/**
 * GET / and /campaigns (the dashboard: every campaign of the ledger) and /campaigns/NAME
 * (its report; HTML, or JSON as `.json` or with Accept: application/json). Served only when
 * the config has a report token or an API token, which the callback secret never stands in
 * for: it travels in every message. The token comes as a Bearer header or a signed-in
 * session's cookie (dashboardRoutes.ts); a browser may open a signed link instead
 * (`cloudtel worker --report-link`, and the links of a page opened either way), good for
 * a short while, never the token itself. Undefined when the path is not a report's.
 */
export async function reportRoute(
	req: IncomingMessage,
	url: URL,
	access: ReportAccess,
	ledger: LedgerReader,
	dashboard: Dashboard,
	nowSeconds = Math.floor(Date.now() / 1000),
	figures: ReportFigures = {},
): Promise<ReportResponse | undefined> {
	const m = PATH.exec(url.pathname);
	if (!m) return undefined;
	const { tokens, session } = access;
	// Links are signed with the report token, or the API token where there is none.
	const token = tokens.report ?? tokens.api;
	if (token === undefined)
		return json(
			404,
			{
				error:
					'this worker serves no report: its config sets no server.reportToken (nor server.apiToken)',
			},
			'reports asked for, but no reportToken is set',
		);
	const bearer = bearerOf(req.headers.authorization);
	const linkExpiry = bearer === undefined ? signedLinkExpiry(token, url, nowSeconds) : undefined;
	const role =
		bearer !== undefined
			? roleOfToken(tokens, bearer)
			: (session?.role ?? (linkExpiry !== undefined ? 'read' : undefined));
	if (role === undefined) {
		return json(
			401,
			{
				error:
					'the reports need the report token (Authorization: Bearer TOKEN, or sign in at /sign-in) or a signed link that has not expired (cloudtel worker --config FILE --report-link)',
			},
			'wrong or missing report token',
		);
	}
	if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'reports are GET' });
	const acceptsJson = /application\/json/.test(req.headers.accept ?? '');
	// A page's links are signed to expire with the link that opened it, or a while after a header did.
	const expires = linkExpiry ?? nowSeconds + REPORT_LINK_SECONDS;
	const link = (name: string) =>
		signReportPath(token, `/campaigns/${encodeURIComponent(name)}`, expires);
	if (m[2] === undefined) {
		const filter = {
			phase: url.searchParams.get('phase') ?? undefined,
			q: url.searchParams.get('q') ?? undefined,
		};
		const rows = await dashboard.rows(filter);
		if (m[1] !== undefined || acceptsJson)
			return json(200, {
				campaigns: rows.map((r) => ({ ...r, link: link(r.name) })),
				cron: dashboard.cron(),
			});
		const body = dashboardHtml({
			...filter,
			rows,
			// A session's cookie opens every page: its links need no signature.
			link: (r) => (session ? r.report : link(r.name)),
			cron: dashboard.cron(),
			...(session ? { account: accountForm(session.role, session.csrf) } : {}),
			...(session?.role === 'control'
				? { controls: (r: DashboardRow) => controlForms(r, session.csrf, '/campaigns') }
				: {}),
			notice: noticeOf(url),
		});
		return { status: 200, type: 'text/html; charset=utf-8', body, headers: DASHBOARD_HEADERS };
	}
	const names = await ledger.campaignNames();
	let name: string;
	try {
		name = decodeURIComponent(m[2]);
	} catch {
		return json(404, { error: 'no such campaign' });
	}
	// Any valid name is a campaign's page, `promo.json` too; NAME.json is NAME's JSON.
	let wantsJson = acceptsJson;
	const known = (n: string) => names.includes(n) || runsOfCampaign(n, names).length > 0;
	if (!known(name) && name.endsWith('.json') && known(name.slice(0, -'.json'.length))) {
		name = name.slice(0, -'.json'.length);
		wantsJson = true;
	}
	// A config campaign's name stands for its latest cron run, as in `campaign status`.
	if (!names.includes(name)) name = runsOfCampaign(name, names)[0] ?? name;
	if (!names.includes(name)) {
		// An API draft has its card before the ledger has it (a start puts it there), and one that
		// failed before its import after: no report.
		const apiOnly = wantsJson ? undefined : await dashboard.row(name);
		if (apiOnly?.phase === 'draft' || apiOnly?.phase === 'failed')
			return {
				status: 200,
				type: 'text/html; charset=utf-8',
				body: campaignPage({
					reportHtml: '',
					row: apiOnly,
					...(session ? { account: accountForm(session.role, session.csrf) } : {}),
					downloads: false,
				}),
				headers: CAMPAIGN_PAGE_HEADERS,
			};
		return json(404, { error: `no campaign named ${name}` });
	}
	const report = await readCampaignReport(ledger, name, figures);
	if (wantsJson) return json(200, report);
	// The chart library loads when a page is first asked for, not at every start of the worker.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { reportHtml } = require('../../campaignReport/reportHtml') as typeof ReportHtml;
	const row = await dashboard.row(name);
	if (!row) return { status: 200, type: 'text/html; charset=utf-8', body: reportHtml(report) };
	const page = campaignPage({
		reportHtml: reportHtml(report),
		row,
		...(session ? { account: accountForm(session.role, session.csrf) } : {}),
		...(session?.role === 'control'
			? { controls: controlForms(row, session.csrf, row.report) }
			: {}),
		notice: noticeOf(url),
		// A signed link opens its page only; the CSVs need the token or a sign-in.
		downloads: bearer !== undefined || session !== undefined,
	});
	return {
		status: 200,
		type: 'text/html; charset=utf-8',
		body: page,
		headers: CAMPAIGN_PAGE_HEADERS,
	};
}
