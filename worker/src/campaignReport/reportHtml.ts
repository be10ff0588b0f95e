import type { CampaignReport } from './campaignReport';
import { escapeHtml as escape } from './escapeHtml';
import { MAX_WIDTH, reportCharts } from './reportCharts';

const number = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });

function rowStates(r: CampaignReport): string {
	if (r.rowStates.length === 0) return '';
	const rows = r.rowStates
		.map(
			(s) =>
				`<tr><th scope="row">${escape(s.state)}</th><td data-figure="statuses.${s.state}" data-value="${s.count}">${number(s.count)}</td><td class="meaning">${escape(s.meaning)}</td></tr>`,
		)
		.join('');
	return `<table class="states"><caption>Rows not simply sent</caption><tbody>${rows}</tbody></table>`;
}

/** A variant campaign's table: one row per text, the winner marked. */
function variantTable(r: CampaignReport): string {
	const v = r.variants;
	if (!v) return '';
	const head = ['Text', 'Rows', 'Sent', 'Delivered', 'Failed', 'Replies', 'Clicks', 'Opted out'];
	const rows = v.variants
		.map((f, i) => {
			const cells = [f.rows, f.sent, f.delivered, f.failed, f.replies]
				.map((x) => `<td>${number(x)}</td>`)
				.join('');
			const won = v.winner?.index === i + 1 ? ' (winner)' : '';
			return `<tr><th scope="row">${i + 1}${won}: ${escape(f.text)}</th>${cells}<td>${f.clicksTracked ? number(f.clicks) : 'not tracked'}</td><td>${number(f.optOuts)}</td></tr>`;
		})
		.join('');
	const caption = v.winner
		? `Variants: text ${v.winner.index} won (${v.winner.byHand ? 'by hand' : `by ${v.winner.by}`}, ${v.winner.decidedAt})`
		: 'Variants: no winner yet';
	return `<table class="variants"><caption>${escape(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** The rows not sent, by ErrorCode, with their first lines and the first one's reason. */
function notSentTable(r: CampaignReport): string {
	if (r.notSentByCode.length === 0) return '';
	const rows = r.notSentByCode
		.map(
			(e, i) =>
				`<tr><th scope="row">${escape(e.code || '(no code)')}</th><td data-figure="notSentByCode.${i}.count" data-value="${e.count}">${number(e.count)}</td><td class="meaning">${escape(e.status)}; line${e.lines.length === 1 ? '' : 's'} ${e.lines.join(', ')}${e.count > e.lines.length ? ', ...' : ''}: ${escape(e.reason)}</td></tr>`,
		)
		.join('');
	return `<section>
<h2>Not sent, by ErrorCode</h2>
<p class="note"><code>cloudtel campaign status --name ${escape(r.campaign)}</code> lists every line.</p>
<table class="states"><tbody>${rows}</tbody></table>
</section>`;
}

function details(r: CampaignReport): string {
	const d = r.details;
	const when = d.startLocal
		? `${escape(d.startLocal)} to ${escape(d.endLocal!)}`
		: 'nothing sent yet';
	return `<dl class="details"><dt>Text</dt><dd class="text">${escape(d.text)}</dd><dt>From</dt><dd>${escape(d.from)}</dd><dt>Sent</dt><dd>${when} <span class="zone">(${escape(d.timeZone)})</span></dd></dl>`;
}

/** A figure the page shows: its JSON path and raw value ride along, so a test (or a script) can read them back. */
function figure(path: string, value: number, label: string): string {
	return `<div class="figure"><dt>${escape(label)}</dt><dd data-figure="${escape(path)}" data-value="${value}">${number(value)}</dd></div>`;
}

function table(title: string, key: string, rows: { name: string; count: number }[]): string {
	if (rows.length === 0) return '';
	const body = rows
		.map(
			(r) =>
				`<tr><th scope="row">${escape(r.name || '(none)')}</th><td data-figure="${escape(`${key}.${r.name}`)}" data-value="${r.count}">${number(r.count)}</td></tr>`,
		)
		.join('');
	return `<table><caption>${escape(title)}</caption><tbody>${body}</tbody></table>`;
}

/**
 * The report as one HTML file: inline CSS, charts as inline SVG (rendered in Node, see
 * reportCharts), no script and no outside resource, so it opens offline and can be mailed.
 * The layout is one column on a phone, two on a wide screen.
 */
export function reportHtml(r: CampaignReport): string {
	const f = r.funnel;
	const charts = reportCharts(r);
	const chart = (id: string) => {
		const c = charts.find((x) => x.id === id)!;
		return `<figure class="chart" data-chart="${c.id}"><figcaption>${escape(c.title)}</figcaption>${c.svg ?? `<p class="empty">${escape(c.empty)}</p>`}</figure>`;
	};
	const receipt = !r.receipts
		? '<p class="note">No delivery receipt came: receipts go only to a <code>--receipt-url</code> (a running <code>cloudtel worker</code>).</p>'
		: r.receiptSeconds
			? `<dl class="figures">${figure('receiptSeconds.p50', r.receiptSeconds.p50, 'Send to receipt, p50 (s)')}${figure('receiptSeconds.p95', r.receiptSeconds.p95, 'Send to receipt, p95 (s)')}</dl>`
			: '<p class="empty">No receipt yet.</p>';
	const sendTimes =
		r.sendTimes.fromRequest > 0
			? `<p class="note" data-figure="sendTimes.fromRequest" data-value="${r.sendTimes.fromRequest}">${r.sendTimes.fromRequest} of the ${r.funnel.sent} messages sent had their answer lost and were accepted by their receipt: they are timed from when their request left, the others from the answer accepting them.</p>`
			: '';
	const unit = r.segments.currency ? ` (${r.segments.currency})` : '';
	const cost =
		r.segments.estimatedCost === null
			? '<p class="note">Give <code>--price-per-segment</code> for an estimated cost.</p>'
			: `<dl class="figures">${figure('segments.pricePerSegment', r.segments.pricePerSegment!, `Price per segment${unit}`)}${figure('segments.estimatedCost', r.segments.estimatedCost, `Estimated cost${unit}`)}</dl>`;
	// Failures are what receipts tell: without receipts there is nothing to show.
	const failures = `<div class="grid">
<section>
<h2>Failures by ErrorCode</h2>
${table(
	'Failed deliveries',
	'failuresByErrorCode',
	r.failuresByErrorCode.map((e) => ({ name: e.errorCode, count: e.count })),
)}
${chart('errorCodes')}
</section>
<section>
<h2>Failures by country</h2>
${table(
	'Failed deliveries',
	'failuresByCountry',
	r.failuresByCountry.map((c) => ({ name: c.country, count: c.count })),
)}
${chart('countries')}
</section>
</div>
`;
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Campaign ${escape(r.campaign)}: report</title>
<style>
:root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1e272e; background: #f5f6fa; }
body { margin: 0 auto; max-width: 1320px; padding: 8px; }
@media (min-width: 600px) { body { padding: 16px; } }
h1 { font-size: 1.5rem; margin: 0 0 4px; word-break: break-word; }
h2 { font-size: 1.1rem; margin: 0 0 8px; }
.meta, .note, .empty { color: #57606f; margin: 0 0 12px; }
section { background: #fff; border-radius: 10px; padding: 12px; margin: 0 0 16px; box-shadow: 0 1px 3px rgba(0,0,0,.08); min-width: 0; }
@media (min-width: 600px) { section { padding: 16px; } }
.details { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0 0 12px; }
.details dd { font-size: 1rem; font-weight: 400; }
.details dd.text { white-space: pre-wrap; word-break: break-word; }
.zone { color: #57606f; }
td.meaning { text-align: left; color: #57606f; font-size: .9rem; }
.grid { display: grid; grid-template-columns: 1fr; gap: 16px; }
@media (min-width: 900px) { .grid { grid-template-columns: 1fr 1fr; } .grid section { margin: 0; } }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(130px, 1fr)); gap: 8px; margin: 0 0 12px; }
.figure { background: #f1f2f6; border-radius: 8px; padding: 8px 10px; }
dt { font-size: .8rem; color: #57606f; }
dd { margin: 0; font-size: 1.4rem; font-weight: 600; font-variant-numeric: tabular-nums; }
figure.chart { margin: 0 0 12px; }
figcaption { font-weight: 600; margin: 0 0 6px; }
/* Capped: scaled to a wide column its text would be twice the page's. */
figure.chart svg { display: block; width: 100%; max-width: ${MAX_WIDTH}px; height: auto; }
table { border-collapse: collapse; width: 100%; margin: 0 0 12px; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #dfe4ea; }
td { text-align: right; font-variant-numeric: tabular-nums; }
</style>
</head>
<body>
<header>
<h1>Campaign ${escape(r.campaign)}</h1>
<p class="meta">${escape(r.phase)} · report of ${escape(r.details.generatedLocal)} (${escape(r.details.timeZone)})</p>
</header>
<section>
${details(r)}
</section>
<section>
<h2>Funnel</h2>
<dl class="figures">
${figure('funnel.rows', f.rows, 'Rows')}
${figure('funnel.valid', f.valid, 'Valid')}
${figure('funnel.sent', f.sent, 'Sent')}
${f.uncertain > 0 ? figure('funnel.uncertain', f.uncertain, 'Uncertain') : ''}
${r.receipts ? figure('funnel.delivered', f.delivered, 'Delivered') : ''}
${r.receipts ? figure('funnel.failed', f.failed, 'Failed') : ''}
${r.receipts ? figure('awaitingReceipt', r.awaitingReceipt, 'Awaiting receipt') : ''}
${figure('funnel.replied', f.replied, 'Replied')}
${figure('funnel.optedOut', f.optedOut, 'Opted out')}
</dl>
${rowStates(r)}
${variantTable(r)}
${r.variants ? chart('variants') : ''}
${chart('funnel')}
</section>
<section>
<h2>Over time</h2>
${chart('timeline')}
${receipt}
${sendTimes}
</section>
${r.receipts ? failures : ''}
${notSentTable(r)}
<section>
<h2>Segments and cost</h2>
<dl class="figures">${figure('segments.sent', r.segments.sent, 'Segments sent')}</dl>
${cost}
</section>
</body>
</html>
`;
}
