import { FatalError } from '../errors';
import type { CsvItem } from './csvItem';
import { fieldTooLong, MAX_FIELD_CHARS, MAX_RECORD_CHARS, rowTooLong } from './csvRecordParser';
import { headerOf, type CsvBatch, type CsvSource } from './openCsv';

/** Rows a batch holds, as openCsv's. */
const BATCH = 1000;

/** Rows as their fields, and the bytes of the input read through the last of them (for progress). */
export interface RowChunk {
	rows: string[][];
	bytes: number;
}

/**
 * Rows that come as fields, not text (an API campaign's JSON pages), read as a CSV of them
 * would be: the header is line 1, each row the next line whatever its values hold, and a
 * row past a CSV row's limits is an error in its place. `label` names them where a path would.
 */
export function rowSource(
	label: string,
	fields: readonly string[],
	chunks: AsyncIterable<RowChunk>,
	size: number,
): CsvSource {
	const bad = tooLong(fields);
	if (bad) throw new FatalError(`the header of ${label} (line 1) cannot be read: ${bad}`);
	const header = headerOf(fields, label, 1);
	let closed = false;
	async function* batches(): AsyncGenerator<CsvBatch> {
		let line = 1;
		let bytes = 0;
		let items: CsvItem[] = [];
		for await (const chunk of chunks) {
			const from = bytes;
			for (let i = 0; i < chunk.rows.length; i++) {
				const row = chunk.rows[i];
				const problem = tooLong(row, header);
				line++;
				items.push(problem ? { line, endLine: line, error: problem } : { line, fields: row });
				if (items.length === BATCH) {
					yield { items, bytes: from + ((chunk.bytes - from) * (i + 1)) / chunk.rows.length };
					items = [];
				}
			}
			bytes = chunk.bytes;
			if (closed) return;
		}
		if (items.length > 0) yield { items, bytes };
	}
	return {
		header,
		delimiter: ',',
		encoding: 'utf-8',
		size,
		batches: batches(),
		close: () => {
			closed = true;
		},
	};
}

/** Why a row is too long for the reader, in its words; undefined when it fits. */
function tooLong(row: readonly string[], header?: readonly string[]): string | undefined {
	let chars = row.length - 1;
	for (let i = 0; i < row.length; i++) {
		if (row[i].length > MAX_FIELD_CHARS) {
			const name = header?.[i];
			return fieldTooLong(name === undefined ? `column ${i + 1}` : `column ${i + 1} (${name})`);
		}
		chars += row[i].length;
	}
	return chars > MAX_RECORD_CHARS ? rowTooLong() : undefined;
}
