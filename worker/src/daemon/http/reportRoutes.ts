import type { IncomingMessage } from 'node:http';
import { bearerOf } from './bearer';
import { escapeHtml as escape } from '../../campaignReport/escapeHtml';
import { readCampaignReport } from '../../campaignReport/campaignReport';
import type * as ReportHtml from '../../campaignReport/reportHtml';
import type { LedgerReader } from '../../storage/ledger';
import { REPORT_LINK_SECONDS, signedLinkExpiry, signReportPath } from './reportLinks';
import { secretMatches } from './secretMatches';
import { runsOfCampaign } from '../callbacks/4-replies/runName';

export interface ReportResponse {
	status: number;
	type: string;
	body: string;
	/** Why it was refused, for the log's count of refusals. */
	refused?: string;
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

/** /campaigns, /campaigns.json, /campaigns/SEGMENT: a campaign name may itself end in .json. */
const PATH = /^\/campaigns(?:(\.json)|\/([^/]+))?\/?$/;

/** The config's price (limits.pricePerSegment) and its unit (currency), for the reports' costs. */
export interface ReportFigures {
	pricePerSegment?: number;
	currency?: string;
}

function json(status: number, body: unknown, refused?: string): ReportResponse {
	return { status, type: 'application/json', body: JSON.stringify(body), refused };
}

/**
 * GET /campaigns (every campaign of the ledger) and /campaigns/NAME (its report; HTML, or
 * JSON as `.json` or with Accept: application/json). Served only when the config has a
 * report token, which the callback secret never stands in for: it travels in every
 * message. The token comes as a Bearer header; a browser opens a signed link instead
 * (`cloudtel worker --report-link`, and the links of a page opened either way), good for
 * a short while, never the token itself. Undefined when the path is not a report's.
 */
export async function reportRoute(
	req: IncomingMessage,
	url: URL,
	token: string | undefined,
	ledger: LedgerReader,
	nowSeconds = Math.floor(Date.now() / 1000),
	figures: ReportFigures = {},
): Promise<ReportResponse | undefined> {
	const m = PATH.exec(url.pathname);
	if (!m) return undefined;
	if (token === undefined)
		return json(
			404,
			{ error: 'this worker serves no report: its config sets no server.reportToken' },
			'reports asked for, but no reportToken is set',
		);
	const bearer = bearerOf(req.headers.authorization);
	const linkExpiry = bearer === undefined ? signedLinkExpiry(token, url, nowSeconds) : undefined;
	if (!(bearer !== undefined ? secretMatches(bearer, token) : linkExpiry !== undefined)) {
		return json(
			401,
			{
				error:
					'the reports need the report token (Authorization: Bearer TOKEN) or a signed link that has not expired (cloudtel worker --config FILE --report-link)',
			},
			'wrong or missing report token',
		);
	}
	if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'reports are GET' });
	const acceptsJson = /application\/json/.test(req.headers.accept ?? '');
	const names = await ledger.campaignNames();
	// A page's links are signed to expire with the link that opened it, or a while after a header did.
	const expires = linkExpiry ?? nowSeconds + REPORT_LINK_SECONDS;
	const link = (name: string) =>
		signReportPath(token, `/campaigns/${encodeURIComponent(name)}`, expires);
	if (m[2] === undefined) {
		if (m[1] !== undefined || acceptsJson)
			return json(200, {
				campaigns: names.map((name) => ({
					name,
					report: `/campaigns/${encodeURIComponent(name)}`,
					link: link(name),
				})),
			});
		const items = names
			.map((n) => `<li><a href="${escape(link(n))}">${escape(n)}</a></li>`)
			.join('');
		const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Campaigns</title></head><body style="font-family:system-ui,sans-serif;padding:16px"><h1>Campaigns</h1><ul>${items || '<li>none yet</li>'}</ul></body></html>`;
		return { status: 200, type: 'text/html; charset=utf-8', body };
	}
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
	if (!names.includes(name)) return json(404, { error: `no campaign named ${name}` });
	const report = await readCampaignReport(ledger, name, figures);
	if (wantsJson) return json(200, report);
	// The chart library loads when a page is first asked for, not at every start of the worker.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { reportHtml } = require('../../campaignReport/reportHtml') as typeof ReportHtml;
	return { status: 200, type: 'text/html; charset=utf-8', body: reportHtml(report) };
}
