import { EVIDENCE_COLUMNS, evidenceCsvLine } from '../../campaign/evidenceCsv';
import { OUT_HEADER, outLine, outRecordOf } from '../../campaign/outFile';
import type { LedgerReader } from '../../storage/ledger';

/** Lines gathered into chunks of this many before they go out: a million rows stream in a thousand writes. */
const LINES_PER_CHUNK = 1000;

async function* chunked(head: string, lines: AsyncIterable<string>, end: string) {
	let chunk = head + end;
	let n = 0;
	for await (const line of lines) {
		chunk += line + end;
		if (++n % LINES_PER_CHUNK === 0) {
			yield chunk;
			chunk = '';
		}
	}
	if (chunk) yield chunk;
}

/** What `campaign run --out` writes: one line per row with its status, MessageSid and error. */
export function outcomeCsv(
	ledger: Pick<LedgerReader, 'rows'>,
	name: string,
): AsyncIterable<string> {
	return chunked(
		OUT_HEADER,
		(async function* () {
			for await (const r of ledger.rows(name)) yield outLine(outRecordOf(r));
		})(),
		'\n',
	);
}

/** What `campaign evidence --out` writes: consent, sending, receipt, replies and opt-out of each row. */
export function evidenceCsv(
	ledger: Pick<LedgerReader, 'evidence'>,
	name: string,
): AsyncIterable<string> {
	return chunked(
		EVIDENCE_COLUMNS.join(','),
		(async function* () {
			for await (const r of ledger.evidence(name)) yield evidenceCsvLine(r);
		})(),
		'\r\n',
	);
}
