import { formatVariants } from '../campaign/variantStatus';
import type { CampaignReport } from './campaignReport';

const n = (x: number) => x.toLocaleString('en-US');
const list = (items: { name: string; count: number }[]) =>
	items.length === 0 ? 'none' : items.map((i) => `${i.name || '(none)'} ${n(i.count)}`).join(', ');

/** The report for a terminal: the same figures as --json, a line each, times where the campaign is. */
export function reportText(r: CampaignReport): string {
	const f = r.funnel;
	const d = r.details;
	const lines = [
		`Campaign ${r.campaign}: ${r.phase}`,
		`  text: ${d.text}`,
		`  from: ${d.from}`,
		d.startLocal
			? `  sent from ${d.startLocal} to ${d.endLocal} (${d.timeZone})`
			: '  nothing sent yet',
		`  funnel: rows ${n(f.rows)}, valid ${n(f.valid)}, sent ${n(f.sent)}` +
			(f.uncertain > 0 ? `, uncertain ${n(f.uncertain)}` : '') +
			(r.receipts ? `, delivered ${n(f.delivered)}, failed ${n(f.failed)}` : '') +
			`, replied ${n(f.replied)}, opted out ${n(f.optedOut)}`,
		...r.rowStates.map((s) => `    ${s.state} ${n(s.count)}: ${s.meaning}`),
	];
	if (r.optOuts.count > 0)
		lines.push(
			`  opt-outs: ${list(r.optOuts.words.map((w) => ({ name: w.word, count: w.count })))}` +
				(r.optOuts.secondsToSuppression
					? `; suppressed within ${r.optOuts.secondsToSuppression.max} s of the reply (p50 ${r.optOuts.secondsToSuppression.p50} s)`
					: ''),
		);
	if (r.receipts) {
		lines.push(
			`  awaiting receipt ${n(r.awaitingReceipt)}`,
			`  failures by ErrorCode: ${list(r.failuresByErrorCode.map((e) => ({ name: e.errorCode, count: e.count })))}`,
			`  failures by country: ${list(r.failuresByCountry.map((c) => ({ name: c.country, count: c.count })))}`,
			r.receiptSeconds
				? `  send to receipt: p50 ${r.receiptSeconds.p50} s, p95 ${r.receiptSeconds.p95} s (${n(r.receiptSeconds.receipts)} receipts)`
				: '  send to receipt: no receipt yet',
		);
	} else
		lines.push(
			'  no delivery receipt came: receipts go only to a --receipt-url (a running `cloudtel worker`)',
		);
	if (r.sendTimes.fromRequest > 0)
		lines.push(
			`  send times: ${n(r.sendTimes.fromAnswer)} from the answer accepting them, ${n(r.sendTimes.fromRequest)} from when their request left (answer lost, accepted by their receipt)`,
		);
	if (r.links) {
		const l = r.links;
		lines.push(
			`  links: clicked by ${n(l.clicked)} recipients` +
				(l.clickRate !== null ? ` (${(l.clickRate * 100).toFixed(1)}% of those sent)` : '') +
				`, ${n(l.clicks)} clicks, ${n(l.prefetches)} previews not counted`,
			...l.perLink.map((p) => `    ${p.url}: ${n(p.clicked)} recipients, ${n(p.clicks)} clicks`),
			...l.timeline.map((b) => `    ${b.at} ${n(b.count)} clicks`),
		);
	}
	if (r.notSentByCode.length > 0)
		lines.push(
			'  not sent, by ErrorCode (`campaign status` lists every line):',
			...r.notSentByCode.map(
				(e) =>
					`    ${e.code || '(no code)'} ${n(e.count)} ${e.status}: line${e.lines.length === 1 ? '' : 's'} ${e.lines.join(', ')}${e.count > e.lines.length ? ', ...' : ''}: ${e.reason}`,
			),
		);
	const unit = r.segments.currency ? `${r.segments.currency} ` : '';
	lines.push(
		`  segments sent ${n(r.segments.sent)}` +
			(r.segments.estimatedCost === null
				? ''
				: `, estimated cost ${unit}${n(r.segments.estimatedCost)} at ${unit}${r.segments.pricePerSegment} per segment`),
	);
	if (r.guardrails.pausedBy)
		lines.push(`  paused by its ${r.guardrails.pausedBy}: ${r.guardrails.reason}`);
	else if (r.guardrails.spent > 0) lines.push(`  spent ${r.guardrails.spent} (--max-cost)`);
	if (r.variants) lines.push(...formatVariants(r.variants));
	return lines.join('\n') + '\n';
}
