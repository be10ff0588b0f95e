import type { TrackedLink } from '../storage/ledger';
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
	const arrays =
		'counts' in encoded
			? [encoded.lines, encoded.counts, encoded.lengths]
			: [encoded.lines, encoded.segments, encoded.other, encoded.lengths];
	return arrays.map((a) => a.buffer as ArrayBuffer);
}

export function decodeRows(encoded: EncodedRows): RowInput[] {
	const rows: RowInput[] = [];
	forEachRow(encoded, (row) => rows.push(row));
	return rows;
}

/** Each row in turn, decoded only when its turn comes. */
export function forEachRow(encoded: EncodedRows, visit: (row: RowInput) => void): void {
	const { lines, counts, lengths, text } = encoded;
	let f = 0;
	let at = 0;
	for (let i = 0; i < lines.length; i++) {
		const fields: string[] = new Array<string>(counts[i]);
		for (let j = 0; j < fields.length; j++) {
			const end = at + lengths[f++];
			fields[j] = text.slice(at, end);
			at = end;
		}
		visit({ line: lines[i], fields });
	}
}

/**
 * Verdicts as columns: each row's three strings end to end in one string (a length of -1
 * for a value that is absent). Accepted rows hold To, text and time zone; refused ones
 * (segments -1) To, reason and code. Refusals were objects once, and cloning a batch's
 * hundred-odd of them was most of what the thread's postMessage cost on a list with one bad
 * row in six.
 */
export interface EncodedVerdicts {
	lines: Float64Array;
	/** Segments of an accepted row; -1 for a refused one. */
	segments: Int32Array;
	/** An accepted row's segments the other way (RowVerdict.otherSegments); -1 when the same. */
	other: Int32Array;
	/** For each row, the lengths of its strings (STRINGS of them); -1 when absent. */
	lengths: Int32Array;
	text: string;
}

const REFUSED = -1;
/** To, text or reason, time zone or code, an accepted row's characters outside GSM-7, and its tracked links. */
const STRINGS = 5;

/** Tracked links as one string: `token url` lines (a URL holds no whitespace). */
function linksText(links: TrackedLink[] | undefined): string | undefined {
	return links?.map((l) => `${l.token} ${l.url}`).join('\n');
}

function linksOf(text: string): TrackedLink[] {
	return text.split('\n').map((pair) => {
		const space = pair.indexOf(' ');
		return { token: pair.slice(0, space), url: pair.slice(space + 1) };
	});
}

export function encodeVerdicts(verdicts: readonly RowVerdict[]): EncodedVerdicts {
	const encoder = new VerdictEncoder(verdicts.length);
	for (const v of verdicts) encoder.add(v);
	return encoder.done();
}

/**
 * Verdicts encoded one by one as they are made. A validator thread judges each row as it
 * decodes it and encodes its verdict at once: no array of a thousand rows or verdicts
 * outlives the row being judged, so little survives a scavenge of the thread's small
 * young generation, and its old generation stays small.
 */
export class VerdictEncoder {
	private readonly lines: Float64Array;
	private readonly segments: Int32Array;
	private readonly other: Int32Array;
	private readonly lengths: Int32Array;
	private readonly parts: string[] = [];
	private i = 0;

	constructor(count: number) {
		this.lines = new Float64Array(count);
		this.segments = new Int32Array(count);
		this.other = new Int32Array(count).fill(-1);
		this.lengths = new Int32Array(count * STRINGS).fill(-1);
	}

	add(v: RowVerdict): void {
		const i = this.i++;
		this.lines[i] = v.line;
		this.segments[i] = v.ok ? v.segments : REFUSED;
		const at = i * STRINGS;
		this.put(at, v.to);
		this.put(at + 1, v.ok ? v.text : v.reason);
		this.put(at + 2, v.ok ? v.timeZone : v.code);
		if (v.ok) {
			this.put(at + 3, v.ucs2);
			this.put(at + 4, linksText(v.links));
			if (v.otherSegments !== undefined) this.other[i] = v.otherSegments;
		}
	}

	private put(at: number, value: string | undefined): void {
		if (value === undefined) return;
		this.lengths[at] = value.length;
		this.parts.push(value);
	}

	done(): EncodedVerdicts {
		return {
			lines: this.lines,
			segments: this.segments,
			other: this.other,
			lengths: this.lengths,
			text: this.parts.join(''),
		};
	}
}

export function decodeVerdicts(encoded: EncodedVerdicts): RowVerdict[] {
	const { lines, segments, other, lengths, text } = encoded;
	const out: RowVerdict[] = new Array<RowVerdict>(lines.length);
	let at = 0;
	const take = (length: number): string | undefined => {
		if (length < 0) return undefined;
		const value = text.slice(at, at + length);
		at += length;
		return value;
	};
	for (let i = 0; i < lines.length; i++) {
		const to = take(lengths[i * STRINGS]);
		const second = take(lengths[i * STRINGS + 1]);
		const third = take(lengths[i * STRINGS + 2]);
		const ucs2 = take(lengths[i * STRINGS + 3]);
		const links = take(lengths[i * STRINGS + 4]);
		if (segments[i] === REFUSED) {
			out[i] =
				to === undefined
					? { line: lines[i], ok: false, code: third!, reason: second! }
					: { line: lines[i], ok: false, code: third!, reason: second!, to };
		} else {
			const v: RowVerdict =
				second === undefined
					? { line: lines[i], ok: true, to: to!, segments: segments[i], timeZone: third }
					: {
							line: lines[i],
							ok: true,
							to: to!,
							text: second,
							segments: segments[i],
							timeZone: third,
						};
			if (ucs2 !== undefined) v.ucs2 = ucs2;
			if (other[i] >= 0) v.otherSegments = other[i];
			if (links !== undefined) v.links = linksOf(links);
			out[i] = v;
		}
	}
	return out;
}
