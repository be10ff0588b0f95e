import type { RowInput, RowVerdict } from './rowRules';

/**
 * Rows and verdicts as they cross to and from the validator threads. Structured clone of
 * a thousand `{line, fields}` objects cost the reading thread more than parsing the CSV
 * did; one string of every field end to end, with typed arrays of lengths, clones as a
 * copy and transfers without one.
 */
export interface EncodedRows {
	lines: Float64Array;
	/** Fields per row. */
	counts: Int32Array;
	/** Length of each field, row after row. */
	lengths: Int32Array;
	text: string;
}

export function encodeRows(rows: readonly RowInput[]): EncodedRows {
	let fields = 0;
	for (const r of rows) fields += r.fields.length;
	const lines = new Float64Array(rows.length);
	const counts = new Int32Array(rows.length);
	const lengths = new Int32Array(fields);
	const parts: string[] = new Array<string>(fields);
	let f = 0;
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i];
		lines[i] = row.line;
		counts[i] = row.fields.length;
		for (const value of row.fields) {
			lengths[f] = value.length;
			parts[f++] = value;
		}
	}
	return { lines, counts, lengths, text: parts.join('') };
}

/** The typed arrays move to the other thread instead of being copied. */
export function transferOf(encoded: EncodedRows | EncodedVerdicts): ArrayBuffer[] {
	const arrays = 'counts' in encoded ? [encoded.lines, encoded.counts, encoded.lengths] : [encoded.lines, encoded.segments, encoded.lengths];
	return arrays.map((a) => a.buffer as ArrayBuffer);
}

export function decodeRows(encoded: EncodedRows): RowInput[] {
	const { lines, counts, lengths, text } = encoded;
	const rows: RowInput[] = new Array<RowInput>(lines.length);
	let f = 0;
	let at = 0;
	for (let i = 0; i < lines.length; i++) {
		const fields: string[] = new Array<string>(counts[i]);
		for (let j = 0; j < fields.length; j++) {
			const end = at + lengths[f++];
			fields[j] = text.slice(at, end);
			at = end;
		}
		rows[i] = { line: lines[i], fields };
	}
	return rows;
}

/**
 * Accepted rows, the great majority, as columns: their To, text and time zone end to end in
 * one string (a length of -1 for a value that is absent); refusals stay objects, in place.
 */
export interface EncodedVerdicts {
	lines: Float64Array;
	segments: Int32Array;
	/** For each row, the lengths of its To, text and time zone; -1 when absent. */
	lengths: Int32Array;
	text: string;
	/** By index: the rows that are not accepted. */
	refused: Record<number, Extract<RowVerdict, { ok: false }>>;
}

export function encodeVerdicts(verdicts: readonly RowVerdict[]): EncodedVerdicts {
	const lines = new Float64Array(verdicts.length);
	const segments = new Int32Array(verdicts.length);
	const lengths = new Int32Array(verdicts.length * 3).fill(-1);
	const parts: string[] = [];
	const refused: EncodedVerdicts['refused'] = {};
	for (let i = 0; i < verdicts.length; i++) {
		const v = verdicts[i];
		lines[i] = v.line;
		if (!v.ok) {
			refused[i] = v;
			continue;
		}
		segments[i] = v.segments;
		lengths[i * 3] = v.to.length;
		parts.push(v.to);
		if (v.text !== undefined) {
			lengths[i * 3 + 1] = v.text.length;
			parts.push(v.text);
		}
		if (v.timeZone !== undefined) {
			lengths[i * 3 + 2] = v.timeZone.length;
			parts.push(v.timeZone);
		}
	}
	return { lines, segments, lengths, text: parts.join(''), refused };
}

export function decodeVerdicts(encoded: EncodedVerdicts): RowVerdict[] {
	const { lines, segments, lengths, text, refused } = encoded;
	const out: RowVerdict[] = new Array<RowVerdict>(lines.length);
	let at = 0;
	const take = (length: number): string | undefined => {
		if (length < 0) return undefined;
		const value = text.slice(at, at + length);
		at += length;
		return value;
	};
	for (let i = 0; i < lines.length; i++) {
		const no = refused[i];
		if (no) {
			out[i] = no;
			continue;
		}
		const to = take(lengths[i * 3])!;
		const rowText = take(lengths[i * 3 + 1]);
		const timeZone = take(lengths[i * 3 + 2]);
		out[i] = rowText === undefined ? { line: lines[i], ok: true, to, segments: segments[i], timeZone } : { line: lines[i], ok: true, to, text: rowText, segments: segments[i], timeZone };
	}
	return out;
}
