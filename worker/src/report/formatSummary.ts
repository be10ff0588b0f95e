import type { CampaignSummary } from '../campaign/campaignSummary';
import type { DryRunForecast } from '../campaign/dryRunForecast';
import { lineRanges } from './lineRanges';

const n = (x: number) => x.toLocaleString('en-US');
const money = (x: number) =>
	x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const plural = (x: number, word: string) => `${n(x)} ${word}${x === 1 ? '' : 's'}`;

/** A dry run's forecast: what the list will cost, and why, and when it will be done. */
export function formatForecast(f: DryRunForecast): string[] {
	const out: string[] = [];
	const cost =
		f.estimatedCost !== undefined
			? ` x ${money(f.pricePerSegment!)} = ${money(f.estimatedCost)}`
			: ' (--price-per-segment N for the cost)';
	out.push(
		`  cost       ${plural(f.segments, 'segment')}${cost} (${plural(f.messages, 'message')})`,
	);
	if (f.ucs2.messages > 0) {
		const chars = f.ucs2.characters
			.map((c) => `${c.character} (${c.codePoint}) in ${n(c.messages)}`)
			.join(', ');
		out.push(
			`  UCS-2      ${plural(f.ucs2.messages, 'message')} (${plural(f.ucs2.segments, 'segment')}) go as UCS-2, 70 characters a segment instead of 160, because of: ${chars}`,
		);
		for (const e of f.ucs2.examples)
			out.push(`    line ${e.line} (${e.characters}): ${e.text ?? ''}`);
	}
	const saved =
		f.smartEncoding.costSaved !== undefined ? ` (${money(f.smartEncoding.costSaved)})` : '';
	if (f.smartEncoding.on && f.smartEncoding.messages > 0)
		out.push(
			`  smart      --smart-encoding replaced typographic characters in ${plural(f.smartEncoding.messages, 'message')}: ${plural(f.smartEncoding.segmentsSaved, 'segment')} saved${saved}`,
		);
	else if (!f.smartEncoding.on && f.smartEncoding.messages > 0)
		out.push(
			`  smart      --smart-encoding would save ${plural(f.smartEncoding.segmentsSaved, 'segment')}${saved} in ${plural(f.smartEncoding.messages, 'message')} (curly quotes, dashes, ellipsis, odd spaces as GSM-7)`,
		);
	if (f.refused && f.refused.countries.length > 0)
		out.push(
			`  countries  refused (--countries): ${f.refused.countries.map((c) => `${c.country} ${n(c.rows)}`).join(', ')}`,
		);
	if (f.refused && f.refused.notMobile > 0)
		out.push(
			`  landlines  ${plural(f.refused.notMobile, 'fixed-line number')} refused (NOT_MOBILE; --allow-landlines sends them)`,
		);
	if (f.spendCap)
		out.push(
			`  spend cap  ${plural(f.spendCap.rowsWithin, 'message')} of ${n(f.messages)} fit under --max-cost ${money(f.spendCap.maxCost)} (${money(f.spendCap.costWithin)}); the run pauses there`,
		);
	if (f.senderId) out.push(`  sender ID  warning: ${f.senderId.message}`);
	if (f.countries.length > 0)
		out.push(`  countries  ${f.countries.map((c) => `${c.country} ${n(c.messages)}`).join(', ')}`);
	if (f.finish) {
		const why = f.finish.heldByWindow ? ', held for the send window' : '';
		out.push(
			`  finish     about ${f.finish.local} (${f.finish.zone})${why}; handing them over takes ${f.finish.handOffSeconds > 0 ? `~${durationText(f.finish.handOffSeconds)}` : 'no time with --rate 0'}`,
		);
	}
	return out;
}

function durationText(seconds: number): string {
	if (seconds < 90) return `${seconds} s`;
	if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
	return `${(seconds / 3600).toFixed(1)} h`;
}

const LABELS: [string, keyof CampaignSummary['rows'], string][] = [
	['accepted', 'accepted', 'by the provider'],
	['rejected', 'rejected', 'by the provider'],
	['invalid', 'invalid', 'not sent: see the errors'],
	['duplicate', 'duplicate', 'not sent: number already in the campaign'],
	['suppressed', 'suppressed', 'not sent: opted out'],
	['capped', 'capped', 'not sent: the number had its --frequency-cap of messages'],
	['uncertain', 'uncertain', 'answer lost: --resend-uncertain to send again'],
	['cancelled', 'cancelled', ''],
	['pending', 'pending', 'not sent yet'],
	['held', 'held', 'the rest of a variant test: sent with the winning text'],
	['submitting', 'submitting', ''],
];

/** The final summary, for a person. */
export function formatSummary(s: CampaignSummary): string {
	const lines: string[] = [];
	const head = s.dryRun
		? `Dry run of campaign ${s.campaign}: nothing was sent`
		: `Campaign ${s.campaign}: ${s.stop}`;
	lines.push(`${head} (${s.seconds.toFixed(1)} s)`);
	const width = String(s.total).length;
	const row = (label: string, n: number, note: string) =>
		lines.push(`  ${label.padEnd(11)}${String(n).padStart(width)}${note ? `  ${note}` : ''}`);
	row('rows', s.total, '');
	if (s.dryRun) {
		row('valid', s.rows.pending, `${s.segments} segments in all`);
		row('invalid', s.rows.invalid, '');
		row('duplicate', s.rows.duplicate, '');
		row('suppressed', s.rows.suppressed, '');
		if (s.rows.capped > 0) row('capped', s.rows.capped, 'at their --frequency-cap now');
	} else {
		for (const [label, key, note] of LABELS) {
			if (s.rows[key] > 0 || key === 'accepted')
				row(label, s.rows[key], key === 'accepted' ? `${note}, ${s.segments} segments` : note);
		}
		if (s.sendRate !== undefined) lines.push(`  rate       ${s.sendRate.toFixed(1)} messages/s`);
	}
	if (s.forecast) lines.push(...formatForecast(s.forecast));
	if (s.variants) {
		lines.push('  variants (test rows; the rest if it wins):');
		const cost = (x: number | undefined) => (x === undefined ? '' : ` (cost ${money(x)})`);
		s.variants.forEach((v, i) => {
			const ucs2 =
				v.ucs2Rows > 0
					? `; UCS-2 in ${plural(v.ucs2Rows, 'row')} because of ${[...v.ucs2Characters].join(' ')}`
					: '';
			lines.push(
				`    ${i + 1}: ${plural(v.testRows, 'row')}, ${plural(v.testSegments, 'segment')}${cost(v.testCost)}; rest ${plural(v.restRows, 'row')}, ${plural(v.restSegments, 'segment')}${cost(v.restCost)}${ucs2}: ${JSON.stringify(v.text)}`,
			);
			if (v.sample)
				lines.push(
					`       line ${v.sample.line} to ${v.sample.to} (${plural(v.sample.segments, 'segment')}): ${v.sample.text}`,
				);
		});
	}
	if (s.preview && s.preview.length > 0) {
		lines.push('  first messages:');
		for (const p of s.preview) {
			lines.push(
				`    line ${p.line} to ${p.to} (${p.segments} segment${p.segments > 1 ? 's' : ''}): ${p.text}`,
			);
			// An example: a real run makes each recipient's own tokens.
			for (const l of p.links ?? []) lines.push(`      tracked link .../${l.token} -> ${l.url}`);
		}
	}
	if (s.firstErrors.length > 0) {
		lines.push('  first errors:');
		for (const e of s.firstErrors) lines.push(`    line ${e.line}: ${e.code}: ${e.reason}`);
	}
	if (s.uncertainLines.length > 0)
		lines.push(
			`  uncertain lines: ${lineRanges(s.uncertainLines)}${s.uncertainLines.length < s.rows.uncertain ? ', ...' : ''}`,
		);
	if (s.message) lines.push(s.message);
	return lines.join('\n') + '\n';
}
