import { escapeHtml as escape } from '../../campaignReport/escapeHtml';
import { campaignCard } from './dashboardHtml';
import type { DashboardRow } from './dashboardRow';
import { pageShell } from './pageShell';

export interface CampaignPageParts {
	/** The report page (reportHtml), whose styles and body are taken in. */
	reportHtml: string;
	row: DashboardRow;
	controls?: string;
	account?: string;
	notice?: string;
	/** Links to the outcome and evidence CSVs: for a token's view, not a signed link's. */
	downloads: boolean;
}

/** Receipt failures by ErrorCode, most first. */
function errorsByCode(row: DashboardRow): string {
	const codes = Object.entries(row.failedByCode).sort((a, b) => b[1] - a[1]);
	if (codes.length === 0) return '<p class="why">No receipt has reported a failure.</p>';
	const rows = codes
		.map(
			([code, n]) =>
				`<tr><th scope="row">${escape(code || '(none given)')}</th><td>${n.toLocaleString('en-US')}</td></tr>`,
		)
		.join('');
	return `<table><thead><tr><th scope="col">ErrorCode</th><th scope="col">Failed</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * A campaign's page: its live card (progress, figures, controls), the guardrail state, its
 * failures by code and its downloads, then the report as `campaign report --html` makes it.
 */
export function campaignPage(p: CampaignPageParts): string {
	const style = /<style>([\s\S]*?)<\/style>/.exec(p.reportHtml)?.[1] ?? '';
	const report = /<body>([\s\S]*?)<\/body>/.exec(p.reportHtml)?.[1] ?? '';
	const { row } = p;
	const path = `/campaigns/${encodeURIComponent(row.name)}`;
	const guard =
		row.phase === 'paused'
			? row.why
			: `Not paused by any guardrail${row.cost !== undefined ? `; spent ${row.cost.toFixed(2)} so far` : ''}.`;
	const downloads = p.downloads
		? `<section class="panel"><h2>Downloads</h2><ul><li><a href="${escape(path)}/outcome.csv" download>Outcome CSV</a> (what <code>campaign run --out</code> writes)</li><li><a href="${escape(path)}/evidence.csv" download>Evidence CSV</a> (what <code>campaign evidence</code> exports)</li></ul></section>`
		: '';
	const notice = p.notice ? `<p class="notice" role="status">${escape(p.notice)}</p>` : '';
	const main = `${notice}<p><a href="/campaigns">All campaigns</a></p><ul class="campaigns" id="campaigns">${campaignCard(row, path, p.controls)}</ul>
<section class="panel"><h2>Guardrails</h2><p data-f="guard">${escape(guard)}</p></section>
<section class="panel"><h2>Errors by code</h2>${errorsByCode(row)}</section>
${downloads}<div class="report">${report}</div>`;
	return pageShell(
		`Campaign ${row.name}`,
		`<h1>Campaign ${escape(row.name)}</h1>${p.account ?? ''}`,
		main,
		style,
	);
}
