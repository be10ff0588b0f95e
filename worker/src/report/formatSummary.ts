import type { CampaignSummary } from '../campaign/campaignSummary';
import { lineRanges } from './lineRanges';

const LABELS: [string, keyof CampaignSummary['rows'], string][] = [
	['accepted', 'accepted', 'by the provider'],
	['rejected', 'rejected', 'by the provider'],
	['invalid', 'invalid', 'not sent: see the errors'],
	['duplicate', 'duplicate', 'not sent: number already in the campaign'],
	['suppressed', 'suppressed', 'not sent: opted out'],
	['uncertain', 'uncertain', 'answer lost: --resend-uncertain to send again'],
	['cancelled', 'cancelled', ''],
	['pending', 'pending', 'not sent yet'],
	['submitting', 'submitting', ''],
];

/** The final summary, for a person. */
export function formatSummary(s: CampaignSummary): string {
	const lines: string[] = [];
	const head = s.dryRun ? `Dry run of campaign ${s.campaign}: nothing was sent` : `Campaign ${s.campaign}: ${s.stop}`;
	lines.push(`${head} (${s.seconds.toFixed(1)} s)`);
	const width = String(s.total).length;
	const row = (label: string, n: number, note: string) => lines.push(`  ${label.padEnd(11)}${String(n).padStart(width)}${note ? `  ${note}` : ''}`);
	row('rows', s.total, '');
	if (s.dryRun) {
		row('valid', s.rows.pending, `${s.segments} segments in all`);
		row('invalid', s.rows.invalid, '');
		row('duplicate', s.rows.duplicate, '');
		row('suppressed', s.rows.suppressed, '');
	} else {
		for (const [label, key, note] of LABELS) {
			if (s.rows[key] > 0 || key === 'accepted') row(label, s.rows[key], key === 'accepted' ? `${note}, ${s.segments} segments` : note);
		}
		if (s.sendRate !== undefined) lines.push(`  rate       ${s.sendRate.toFixed(1)} messages/s`);
	}
	if (s.preview && s.preview.length > 0) {
		lines.push('  first messages:');
		for (const p of s.preview) lines.push(`    line ${p.line} to ${p.to} (${p.segments} segment${p.segments > 1 ? 's' : ''}): ${p.text}`);
	}
	if (s.firstErrors.length > 0) {
		lines.push('  first errors:');
		for (const e of s.firstErrors) lines.push(`    line ${e.line}: ${e.code}: ${e.reason}`);
	}
	if (s.uncertainLines.length > 0) lines.push(`  uncertain lines: ${lineRanges(s.uncertainLines)}${s.uncertainLines.length < s.rows.uncertain ? ', ...' : ''}`);
	if (s.message) lines.push(s.message);
	return lines.join('\n') + '\n';
}
