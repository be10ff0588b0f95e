import type { IncomingMessage } from 'node:http';
import { escapeHtml as escape } from '../../campaignReport/escapeHtml';
import { readCampaignReport } from '../../campaignReport/campaignReport';
import type * as ReportHtml from '../../campaignReport/reportHtml';
import type { Ledger } from '../../ledger/ledger';
import { secretMatches } from './secretMatches';

export interface ReportResponse {
	status: number;
	type: string;
	body: string;
}

/** /campaigns, /campaigns.json, /campaigns/SEGMENT: a campaign name may itself end in .json. */
const PATH = /^\/campaigns(?:(\.json)|\/([^/]+))?\/?$/;

function json(status: number, body: unknown): ReportResponse {
	return { status, type: 'application/json', body: JSON.stringify(body) };
}

/**
 * GET /campaigns (every campaign of the ledger) and /campaigns/NAME (its report; HTML, or
 * JSON as `.json` or with Accept: application/json). The token comes as a Bearer header or
 * `?token=`, so a link opens in a browser; it is the report token, or else the callback
 * secret. Undefined when the path is not a report's.
 */
export async function reportRoute(req: IncomingMessage, url: URL, token: string, ledger: Ledger): Promise<ReportResponse | undefined> {
	const m = PATH.exec(url.pathname);
	if (!m) return undefined;
	const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
	const given = bearer ?? url.searchParams.get('token') ?? '';
	if (!secretMatches(given, token)) return json(401, { error: 'the reports need the report token (or the callback secret): Authorization: Bearer TOKEN, or ?token=TOKEN' });
	if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'reports are GET' });
	const acceptsJson = /application\/json/.test(req.headers.accept ?? '');
	const names = await ledger.campaignNames();
	// Links keep the token only when it came in the URL: a header stays a header.
	const suffix = bearer === undefined ? `?token=${encodeURIComponent(given)}` : '';
	if (m[2] === undefined) {
		if (m[1] !== undefined || acceptsJson) return json(200, { campaigns: names.map((name) => ({ name, report: `/campaigns/${encodeURIComponent(name)}` })) });
		const items = names.map((n) => `<li><a href="/campaigns/${encodeURIComponent(n)}${suffix}">${escape(n)}</a></li>`).join('');
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
	if (!names.includes(name) && name.endsWith('.json') && names.includes(name.slice(0, -'.json'.length))) {
		name = name.slice(0, -'.json'.length);
		wantsJson = true;
	}
	if (!names.includes(name)) return json(404, { error: `no campaign named ${name}` });
	const report = await readCampaignReport(ledger, name);
	if (wantsJson) return json(200, report);
	// The chart library loads when a page is first asked for, not at every start of the worker.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { reportHtml } = require('../../campaignReport/reportHtml') as typeof ReportHtml;
	return { status: 200, type: 'text/html; charset=utf-8', body: reportHtml(report) };
}
