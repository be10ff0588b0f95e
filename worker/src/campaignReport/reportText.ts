import type { CampaignReport } from './campaignReport';

const list = (items: { name: string; count: number }[]) => (items.length === 0 ? 'none' : items.map((i) => `${i.name || '(none)'} ${i.count}`).join(', '));

/** The report for a terminal: the same figures as --json, a line each. */
export function reportText(r: CampaignReport): string {
	const f = r.funnel;
	const lines = [
		`Campaign ${r.campaign}: ${r.phase}`,
		`  funnel: rows ${f.rows}, valid ${f.valid}, sent ${f.sent}, delivered ${f.delivered}, failed ${f.failed}, replied ${f.replied}, opted out ${f.optedOut}`,
		`  awaiting receipt ${r.awaitingReceipt}`,
		`  failures by ErrorCode: ${list(r.failuresByErrorCode.map((e) => ({ name: e.errorCode, count: e.count })))}`,
		`  failures by country: ${list(r.failuresByCountry.map((c) => ({ name: c.country, count: c.count })))}`,
		r.receiptSeconds ? `  send to receipt: p50 ${r.receiptSeconds.p50} s, p95 ${r.receiptSeconds.p95} s (${r.receiptSeconds.receipts} receipts)` : '  send to receipt: no receipt yet',
		...(r.sendTimes.fromRequest > 0 ? [`  send times: ${r.sendTimes.fromAnswer} from the answer accepting them, ${r.sendTimes.fromRequest} from when their request left (answer lost, accepted by their receipt)`] : []),
		`  segments sent ${r.segments.sent}` + (r.segments.estimatedCost === null ? '' : `, estimated cost ${r.segments.estimatedCost} at ${r.segments.pricePerSegment} per segment`),
	];
	return lines.join('\n') + '\n';
}
