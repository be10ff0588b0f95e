import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { FatalError } from '../errors';
import type { InputMark } from '../storage/ledger';
import { printable } from './printable';
import { BadByte, CsvDecoder } from './csvDecoder';
import { isCsvError, type CsvItem } from './csvItem';
import { CsvRecordParser } from './csvRecordParser';
import { sniffDelimiter } from './sniffDelimiter';

export interface CsvBatch {
	items: CsvItem[];
	/** Bytes of the file up to the end of this batch's last record, near enough, for progress. */
	bytes: number;
	/** With `hash`: the bytes read so far (at least through this batch) and their SHA-256. */
	input?: InputMark;
}

export interface CsvSource {
	header: string[];
	delimiter: string;
	/** As read: utf-8, utf-16le, utf-16be or windows-1252. */
	encoding: string;
	/** Bytes in the file, for progress; 0 when unknown (standard input). */
	size: number;
	/** The file's mtime, Unix ms; undefined for standard input. */
	mtimeMs?: number;
	/** Data records in file order, in small batches; bad records come as errors in place. */
	batches: AsyncIterable<CsvBatch>;
	/** Stops reading: for a caller that wanted only the header. */
	close(): void;
}

/** `--csv -` reads standard input, as does a path to it such as /dev/stdin. */
export const STDIN = '-';
/** Opening these fails when standard input is a socket, as it is under many process managers. */
const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
const SNIFF_CHARS = 64 * 1024;
const BATCH = 1000;
/**
 * Bytes per read. A 256 KB chunk became a string V8 keeps in its large-object space until a
 * full collection, and all of its ~7,500 records were parsed at once and waited, alive
 * across young-generation collections, for their batch: on a million-row dry run that was
 * ~20 MB of peak memory. Under 128 KB a chunk's text is an ordinary young object, and a
 * chunk is about one batch of records.
 */
const READ_CHUNK = 32 * 1024;
/** Enough of the file to hold its header line, and to tell its line ending. */
const HEADER_LINE = /[^\s\ufeff][^\n\r]*(\n|\r[^])/;
/** Excel's first line naming the delimiter (`sep=;`), which is not part of the data. */
const SEP_LINE = /^"?sep=(.)"?[^\r\n]*(\r\n|\n|\r)/i;

export function isStdin(path: string): boolean {
	return path === STDIN || STDIN_PATHS.has(path);
}

async function openStream(
	path: string,
): Promise<{ stream: Readable; size: number; mtimeMs?: number }> {
	if (isStdin(path)) return { stream: process.stdin, size: 0 };
	let size = 0;
	let mtimeMs: number | undefined;
	try {
		const info = await stat(path);
		if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
		size = info.isFile() ? info.size : 0;
		mtimeMs = info.isFile() ? Math.floor(info.mtimeMs) : undefined;
	} catch (error) {
		throw unreadable(path, error as NodeJS.ErrnoException);
	}
	return { stream: createReadStream(path, { highWaterMark: READ_CHUNK }), size, mtimeMs };
}

function unreadable(path: string, error: NodeJS.ErrnoException): FatalError {
	const why =
		error.code === 'ENOENT'
			? 'no such file'
			: error.code === 'EACCES'
				? 'permission denied'
				: error.code === 'EISDIR'
					? 'it is a directory, not a file'
					: error.message;
	return new FatalError(`cannot read the CSV file ${path}: ${why}`);
}

export interface CsvOptions {
	delimiter?: string;
	/** `--encoding`: a single-byte code page for a file that is not UTF-8. */
	encoding?: string;
	/** Hash the bytes as they are read: an import records what it read (CsvBatch.input). */
	hash?: boolean;
}

/**
 * Streams a CSV file (or standard input): UTF-8 (checked), or UTF-16 with a BOM, or the
 * code page given; delimiter from a `sep=` first line, else given, else sniffed from the
 * header; quoted fields; CRLF, LF or CR line endings. Every record is numbered by the line
 * it starts on, which is what a person sees in an editor or a spreadsheet.
 */
export async function openCsv(path: string, options: CsvOptions = {}): Promise<CsvSource> {
	const { stream, size, mtimeMs } = await openStream(path);
	const close = () => {
		if (stream !== process.stdin) stream.destroy();
	};
	try {
		return await readHeader(path, options, stream, { size, mtimeMs }, close);
	} catch (error) {
		close();
		throw error;
	}
}

/**
 * The same reader over bytes that are no file (an uploaded CSV kept in the database):
 * `label` names them where a path would; `size`, when known, is for progress.
 */
export async function openCsvStream(
	stream: Readable,
	label: string,
	options: CsvOptions = {},
	size = 0,
): Promise<CsvSource> {
	const close = () => stream.destroy();
	try {
		return await readHeader(label, options, stream, { size }, close);
	} catch (error) {
		close();
		throw error;
	}
}

async function readHeader(
	path: string,
	options: CsvOptions,
	stream: Readable,
	file: { size: number; mtimeMs?: number },
	close: () => void,
): Promise<CsvSource> {
	const { size, mtimeMs } = file;
	const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
	const decoder = new CsvDecoder(options.encoding);
	const hasher = options.hash ? createHash('sha256') : undefined;
	let bytes = 0;
	let decodedChars = 0;
	let ended = false;
	/** Old Macs' files end lines with CR alone: read as LF, which the parser splits on. */
	let crLines = false;
	/** Set once the header's delimiter is known; a bad byte before that is placed by the sample alone. */
	const reading: { parser?: CsvRecordParser } = {};
	let sample = '';
	const read = async (): Promise<string> => {
		let next: IteratorResult<Buffer>;
		try {
			next = await chunks.next();
		} catch (error) {
			throw unreadable(path, error as NodeJS.ErrnoException);
		}
		let text: string;
		try {
			if (next.done) {
				ended = true;
				text = decoder.end();
			} else {
				const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
				bytes += chunk.length;
				hasher?.update(chunk);
				text = decoder.write(chunk);
			}
		} catch (error) {
			if (error instanceof BadByte) throw notUtf8(path, error, lineOf(error.before));
			throw new FatalError(`the CSV file ${path} cannot be read: ${(error as Error).message}`);
		}
		decodedChars += text.length;
		return crLines ? text.replaceAll('\r', '\n') : text;
	};
	/** The line the text decoded so far, then `before`, ends on. */
	const lineOf = (before: string): number => {
		const text = crLines ? before.replaceAll('\r', '\n') : before;
		if (reading.parser) {
			reading.parser.push(text);
			return reading.parser.lineAtEnd();
		}
		const all = sample + text;
		const breaks = all.match(/\n/g)?.length ?? all.match(/\r/g)?.length ?? 0;
		return breaks + 1;
	};

	// The header decides the delimiter, so it is read before the parser starts.
	while (!ended && sample.length < SNIFF_CHARS && !HEADER_LINE.test(sample)) sample += await read();
	sample = sample.replace(/^\ufeff/, '');
	const firstBreak = /[\r\n]/.exec(sample);
	if (
		firstBreak?.[0] === '\r' &&
		sample[firstBreak.index + 1] !== '\n' &&
		(firstBreak.index + 1 < sample.length || ended)
	) {
		crLines = true;
		sample = sample.replaceAll('\r', '\n');
	}
	const sepLine = SEP_LINE.exec(sample);
	if (sepLine) sample = sample.slice(sepLine[0].length);
	const sep =
		options.delimiter ?? sepLine?.[1] ?? sniffDelimiter(sample.replace(/^[\ufeff\s]+/, ''));
	const parser = new CsvRecordParser(sep);
	reading.parser = parser;
	if (sepLine) parser.startAt(2);
	const pending: CsvItem[] = parser.push(sample, ended);
	// Characters handed to the parser before and after the items pending: a batch's place in
	// the file is found between the two, so progress follows the records handed out, not
	// the parser's read-ahead.
	let pendingFrom = 0;
	let fed = sample.length;
	let pendingTo = fed - parser.buffered();

	/** More items, or false at the end. */
	const more = async (): Promise<boolean> => {
		while (pending.length === 0) {
			if (ended) return false;
			const text = await read();
			pendingFrom = pendingTo;
			pending.push(...parser.push(text, ended));
			fed += text.length;
			pendingTo = fed - parser.buffered();
		}
		return true;
	};

	if (!(await more()))
		throw new FatalError(`the CSV file ${path} is empty: it needs a header line and rows`);
	const first = pending.shift()!;
	if (isCsvError(first))
		throw new FatalError(
			`the header of ${path} (line ${first.line}) cannot be read: ${first.error}`,
		);
	const header = headerOf(first.fields, path, first.line);
	parser.header = header;

	const toBytes = (chars: number) =>
		decodedChars > 0 ? Math.round(chars * (bytes / decodedChars)) : 0;
	async function* batches(): AsyncGenerator<CsvBatch> {
		while (await more()) {
			const total = pending.length;
			const items = pending.splice(0, BATCH);
			const through = pendingFrom + ((pendingTo - pendingFrom) * items.length) / total;
			pendingFrom = through;
			yield {
				items,
				bytes: toBytes(through),
				input: hasher ? { bytes, hash: hasher.copy().digest('hex'), size, mtimeMs } : undefined,
			};
		}
	}
	return {
		header,
		delimiter: sep,
		encoding: decoder.encoding ?? 'utf-8',
		size,
		mtimeMs,
		batches: batches(),
		close,
	};
}

function notUtf8(path: string, bad: BadByte, line: number): FatalError {
	const hex = bad.byte.toString(16).toUpperCase().padStart(2, '0');
	return new FatalError(
		`the CSV file ${path} is not UTF-8: line ${line} has byte 0x${hex} (byte ${(bad.offset + 1).toLocaleString('en-US')} of the file), which UTF-8 cannot read. ` +
			`A file Excel saved as "CSV (Comma delimited)" is Windows-1252: give --encoding windows-1252 (or latin1) to read it so, or save it as "CSV UTF-8"`,
	);
}

/** A header's names as the campaign uses them: trimmed, printable, a blank one named by its place. */
export function headerOf(fields: readonly string[], path: string, line: number): string[] {
	const header = fields.map((h, i) => printable(h.trim()) || `column ${i + 1}`);
	checkHeader(header, path, line);
	return header;
}

/** A name given twice would make {{Name}} and --to-column pick one of them silently. */
function checkHeader(header: string[], path: string, line: number): void {
	const seen = new Map<string, number>();
	header.forEach((name, i) => {
		const earlier = seen.get(name);
		if (earlier !== undefined)
			throw new FatalError(
				`the header of ${path} (line ${line}) names column ${earlier + 1} and column ${i + 1} both "${name}": rename one of them`,
			);
		seen.set(name, i);
	});
}
