import type { CsvItem } from './csvItem';

/** The largest field a campaign reads; a larger one makes its line invalid, and only that line. */
export const MAX_FIELD_CHARS = 100_000;
/** The largest record: many fields just under the limit must not hold the whole file in memory either. */
export const MAX_RECORD_CHARS = 1_000_000;

/** The parser's words for a row past MAX_RECORD_CHARS, and for a field past MAX_FIELD_CHARS (rowSource.ts holds rows to them too). */
export function rowTooLong(max = MAX_RECORD_CHARS): string {
	return `the row is longer than the maximum of ${max.toLocaleString('en-US')} characters`;
}
export function fieldTooLong(column: string, max = MAX_FIELD_CHARS): string {
	return `${column} is longer than the maximum of ${max.toLocaleString('en-US')} characters`;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const NEED_MORE = Symbol('need more');

/**
 * RFC 4180 records from text pushed in pieces, each numbered by the line it starts on.
 * Written here rather than taken from csv-parse because of what happens after a bad
 * record: csv-parse either stops reading (a record over its size limit) or reads on inside
 * a broken quote, so one bad line could swallow or drop every line after it. Here a bad
 * record is reported on its own first line, and reading resumes at the next line.
 * Empty lines are passed over. A quote inside an unquoted field is read as a character, as
 * Excel does, with a warning on its record.
 */
export class CsvRecordParser {
	private buf = '';
	private pos = 0;
	/** The line `pos` is on. */
	private line = 1;
	/** After an error whose line's end is not read yet: the text up to the next newline is dropped. */
	private skipping = false;
	private readonly delimiter: number;
	/** Names the column of a bad field: the first record, unless set. */
	header: readonly string[] | undefined;

	constructor(
		delimiter: string,
		private readonly maxField = MAX_FIELD_CHARS,
		private readonly maxRecord = MAX_RECORD_CHARS,
	) {
		this.delimiter = delimiter.charCodeAt(0);
	}

	/** The first record is on this line: a `sep=` line Excel writes comes before it. */
	startAt(line: number): void {
		this.line = line;
	}

	/** The line the text pushed ends on: where a byte that could not be decoded is. */
	lineAtEnd(): number {
		let line = this.line;
		for (let i = this.buf.indexOf('\n', this.pos); i >= 0; i = this.buf.indexOf('\n', i + 1))
			line++;
		return line;
	}

	/** Characters pushed but not yet parsed into records. */
	buffered(): number {
		return this.buf.length - this.pos;
	}

	/** Parses what `text` completes; `end` says no more text follows. Returns the items in file order. */
	push(text: string, end = false): CsvItem[] {
		const out: CsvItem[] = [];
		this.buf = this.pos < this.buf.length ? this.buf.slice(this.pos) + text : text;
		this.pos = 0;
		if (this.line === 1 && this.buf.charCodeAt(0) === 0xfeff) this.buf = this.buf.slice(1);
		for (;;) {
			if (this.skipping) {
				const nl = this.buf.indexOf('\n', this.pos);
				if (nl < 0) {
					this.buf = '';
					this.pos = 0;
					break;
				}
				this.skipping = false;
				this.pos = nl + 1;
			}
			if (this.pos >= this.buf.length) break;
			const item = this.record(end);
			if (item === NEED_MORE) break;
			if (item) out.push(item);
		}
		return out;
	}

	/** The record at `pos`, undefined for an empty line, or NEED_MORE when its end is not read yet. */
	private record(end: boolean): CsvItem | undefined | typeof NEED_MORE {
		const buf = this.buf;
		const n = buf.length;
		const d = this.delimiter;
		const start = this.pos;
		const fields: string[] = [];
		let p = start;
		let newlines = 0;
		/** The first column with a quote inside it, 0 for none. */
		let strayQuote = 0;
		for (;;) {
			const column = fields.length + 1;
			if (p - start > this.maxRecord) return this.fail(rowTooLong(this.maxRecord));
			if (buf.charCodeAt(p) === QUOTE) {
				let value = '';
				let from = p + 1;
				for (;;) {
					const close = buf.indexOf('"', from);
					if (close < 0) {
						if (value.length + n - from > this.maxField) return this.tooLong(column);
						if (!end) return NEED_MORE;
						return this.fail(`the quote that opens ${this.columnName(column)} is never closed`);
					}
					value += buf.slice(from, close);
					if (close + 1 >= n && !end) return NEED_MORE;
					if (buf.charCodeAt(close + 1) === QUOTE) {
						value += '"';
						from = close + 2;
						continue;
					}
					p = close + 1;
					break;
				}
				if (value.length > this.maxField) return this.tooLong(column);
				for (let i = value.indexOf('\n'); i >= 0; i = value.indexOf('\n', i + 1)) newlines++;
				fields.push(value);
				if (p >= n) {
					if (!end) return NEED_MORE;
					break;
				}
				const c = buf.charCodeAt(p);
				if (c === d) {
					p++;
					continue;
				}
				if (c === LF) {
					p++;
					break;
				}
				if (c === CR && p + 1 >= n && !end) return NEED_MORE;
				if (c === CR && buf.charCodeAt(p + 1) === LF) {
					p += 2;
					break;
				}
				return this.fail(`${this.columnName(column)} has text after its closing quote`);
			}
			// A quote inside a field that does not start with one is a character, as Excel reads
			// it: `12" pizza` is twelve-inch. The line gets a warning, in case it was a typo.
			let q = p;
			let c = 0;
			for (; q < n; q++) {
				c = buf.charCodeAt(q);
				if (c === d || c === LF) break;
				if (c === QUOTE) strayQuote ||= column;
			}
			if (q - p > this.maxField + 1) return this.tooLong(column);
			if (q >= n) {
				if (!end) return NEED_MORE;
				fields.push(stripCr(buf.slice(p, q)));
				p = q;
				break;
			}
			if (c === d) {
				fields.push(buf.slice(p, q));
				p = q + 1;
				if (p >= n && end) fields.push('');
				else continue;
				break;
			}
			const value = stripCr(buf.slice(p, q));
			if (value.length > this.maxField) return this.tooLong(column);
			fields.push(value);
			p = q + 1;
			break;
		}
		const line = this.line;
		this.pos = p;
		this.line += 1 + newlines;
		if (fields.length === 1 && fields[0] === '') return undefined;
		this.header ??= fields;
		if (strayQuote > 0)
			return {
				line,
				fields,
				warning: `${this.columnName(strayQuote)} has a quote inside it that does not start it: read as a character (${JSON.stringify(fields[strayQuote - 1])})`,
			};
		return { line, fields };
	}

	private tooLong(column: number): CsvItem {
		return this.fail(fieldTooLong(this.columnName(column), this.maxField));
	}

	/** The record at `pos` is bad: its first line is reported, and reading resumes at the next line. */
	private fail(reason: string): CsvItem {
		const line = this.line;
		const nl = this.buf.indexOf('\n', this.pos);
		if (nl < 0) {
			this.skipping = true;
			this.pos = this.buf.length;
		} else this.pos = nl + 1;
		this.line++;
		return { line, endLine: line, error: reason };
	}

	private columnName(column: number): string {
		const name = this.header?.[column - 1];
		return name === undefined ? `column ${column}` : `column ${column} (${name})`;
	}
}

function stripCr(value: string): string {
	return value.charCodeAt(value.length - 1) === CR ? value.slice(0, -1) : value;
}
