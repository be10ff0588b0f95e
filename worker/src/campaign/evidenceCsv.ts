import type { EvidenceRow } from '../storage/evidence';
import { spreadsheetSafe } from './spreadsheetSafe';

/** `campaign evidence`'s CSV (and the dashboard's download of it): its columns, in order; times are ISO 8601 UTC. */
export const EVIDENCE_COLUMNS = [
	'line',
	'number',
	'consent_source',
	'consent_at',
	'status',
	'text',
	'handed_over_at',
	'message_sid',
	'receipt_status',
	'receipt_at',
	'replies',
	'opt_out_at',
	'opt_out_word',
	'suppressed_at',
	'confirmation_at',
	'sent_after_opt_out',
] as const;

const iso = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toISOString());

function csvCell(value: string): string {
	const safe = spreadsheetSafe(value);
	return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function evidenceCsvLine(r: EvidenceRow): string {
	const cells: Record<(typeof EVIDENCE_COLUMNS)[number], string> = {
		line: String(r.line),
		number: r.number ?? '',
		consent_source: r.consentSource ?? '',
		consent_at: iso(r.consentAt),
		status: r.status,
		text: r.text ?? '',
		handed_over_at: iso(r.handedOverAt),
		message_sid: r.messageSid ?? '',
		receipt_status: r.receiptStatus ?? '',
		receipt_at: iso(r.receiptAt),
		replies: r.replies.map((at) => iso(at)).join(' '),
		opt_out_at: iso(r.optOutAt),
		opt_out_word: r.optOutWord ?? '',
		suppressed_at: iso(r.suppressedAt),
		confirmation_at: iso(r.confirmationAt),
		sent_after_opt_out: r.sentAfterOptOut ? 'YES' : 'no',
	};
	return EVIDENCE_COLUMNS.map((c) => csvCell(cells[c])).join(',');
}
