import { escapeHtml as escape } from '../../campaignReport/escapeHtml';
import { PHASES } from './campaignPhase';
import type { DashboardRow } from './dashboardRow';
import { countAndRate, when } from './figureText';
import { pageShell } from './pageShell';

export interface DashboardPage {
	rows: readonly DashboardRow[];
	/** The filter as asked (?phase=&q=). */
	phase?: string;
	q?: string;
	/** Where each campaign's page is (a signed link, when opened with one). */
	link(row: DashboardRow): string;
	/** Its controls' forms, for the API token's sessions; none for a read-only view. */
	controls?(row: DashboardRow): string;
	/** The sign-out form and who is signed in, for a session's page. */
	account?: string;
	/** A line above the list: what a control just did. */
	notice?: string;
	/** Each cron campaign's next tick. */
	cron?: readonly { campaign: string; next?: string }[];
}

/** One campaign's card; /dashboard.js finds its figures by `data-f` and writes them again. */
export function campaignCard(row: DashboardRow, link: string, controls = ''): string {
	const fig = (label: string, field: string, value: string) =>
		`<div><dt>${label}</dt><dd data-f="${field}">${escape(value)}</dd></div>`;
	const figures = [
		fig(
			'Sent',
			'sent',
			`${row.sent.toLocaleString('en-US')} of ${row.toSend.toLocaleString('en-US')}`,
		),
		fig('Delivered', 'delivered', countAndRate(row.delivered, row.sent)),
		fig('Failed', 'failed', countAndRate(row.failed, row.sent)),
		fig('Replied', 'replied', countAndRate(row.replied, row.sent)),
		fig('Opted out', 'optedOut', countAndRate(row.optedOut, row.sent)),
		row.clicked !== undefined ? fig('Clicked', 'clicked', countAndRate(row.clicked, row.sent)) : '',
		row.cost !== undefined ? fig('Cost', 'cost', row.cost.toFixed(2)) : '',
		fig('Started', 'startedAt', when(row.startedAt)),
		fig('Ended', 'endedAt', when(row.endedAt)),
	].join('');
	return `<li><article class="campaign" data-name="${escape(row.name)}" data-phase="${row.phase}"${row.counting ? ' data-counting="1"' : ''} aria-labelledby="c-${escape(encodeURIComponent(row.name))}">
<h2 id="c-${escape(encodeURIComponent(row.name))}"><a href="${escape(link)}">${escape(row.name)}</a></h2>
<span class="phase phase-${row.phase}" data-f="phase">${row.phase}</span> <span class="why" data-f="why">${escape(row.why)}</span>
<progress data-f="progress" max="${Math.max(1, row.toSend)}" value="${row.sent}" aria-label="${escape(row.name)}: sent ${row.sent} of ${row.toSend}">${row.sent} of ${row.toSend}</progress>
<dl class="figures">${figures}</dl>${controls}</article></li>`;
}

/** The dashboard: every campaign, running ones first, with a filter that works without script. */
export function dashboardHtml(page: DashboardPage): string {
	const options = ['', ...PHASES]
		.map(
			(p) =>
				`<option value="${p}"${p === (page.phase ?? '') ? ' selected' : ''}>${p === '' ? 'any' : p}</option>`,
		)
		.join('');
	const filters = `<form class="filters" method="get" action="/campaigns" role="search"><label>Phase<select name="phase">${options}</select></label><label>Name<input type="search" name="q" value="${escape(page.q ?? '')}"></label><button type="submit">Filter</button></form>`;
	const cron =
		page.cron && page.cron.length > 0
			? `<p class="notice">Cron campaigns: ${page.cron.map((c) => `${escape(c.campaign)}, next tick ${escape(when(c.next))}`).join('; ')}</p>`
			: '';
	const notice = page.notice ? `<p class="notice" role="status">${escape(page.notice)}</p>` : '';
	const items = page.rows.map((r) => campaignCard(r, page.link(r), page.controls?.(r))).join('\n');
	const sending = page.rows.some((r) => r.phase === 'sending');
	const main = `${notice}${filters}${cron}<ul class="campaigns" id="campaigns" data-live="${sending ? '1' : '0'}">${items || '<li>No campaign matches.</li>'}</ul>`;
	return pageShell('Campaigns', `<h1>Campaigns</h1>${page.account ?? ''}`, main);
}
