import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse, type CsvError } from 'csv-parse';
import { FatalError } from '../campaign/fatalError';
import { isCsvError, type CsvItem } from './csvItem';
import { sniffDelimiter } from './sniffDelimiter';

export interface CsvSource {
	header: string[];
	delimiter: string;
	/** Bytes in the file, for progress. */
	size: number;
	/** Data records in file order, in small batches; bad stretches come as errors in place. */
	batches: AsyncIterable<CsvItem[]>;
	/** Bytes parsed so far. */
	bytesRead(): number;
	/** Stops reading: for a caller that wanted only the header. */
	close(): void;
}

const SNIFF_BYTES = 64 * 1024;
const BATCH = 1000;
/** An unclosed quote would otherwise swallow the rest of the file into one field. */
const MAX_RECORD_CHARS = 1_000_000;

async function readStart(path: string): Promise<{ sample: string; size: number }> {
	let handle;
	try {
		handle = await open(path, 'r');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : String((error as Error).message);
		throw new FatalError(`cannot read the CSV file ${path}: ${why}`);
	}
	try {
		const { size } = await handle.stat();
		const buffer = Buffer.alloc(Math.min(SNIFF_BYTES, size));
		await handle.read(buffer, 0, buffer.length, 0);
		return { sample: buffer.toString('utf8'), size };
	} finally {
		await handle.close();
	}
}

/**
 * Streams a CSV file through csv-parse: BOM stripped, delimiter sniffed from the header
 * unless given, quoted fields, CRLF or LF. Every record is numbered by the line it starts
 * on, which is what a person sees in an editor or a spreadsheet.
 */
export async function openCsv(path: string, delimiter?: string): Promise<CsvSource> {
	const { sample, size } = await readStart(path);
	if (sample.replace(/^\ufeff/, '').trim() === '') throw new FatalError(`the CSV file ${path} is empty: it needs a header line and rows`);
	const sep = delimiter ?? sniffDelimiter(sample);
	// Errors csv-parse skips, with how many records came before each: they are put back in
	// place as the records are consumed, since they are raised ahead of the records still
	// buffered. Line numbers are counted here, not taken from csv-parse's per-record info,
	// which costs more than the parse itself.
	const skipped: (CsvError & { lines: number; records: number })[] = [];
	const parser = parse({
		bom: true,
		delimiter: sep,
		relax_column_count: true,
		skip_records_with_error: true,
		max_record_size: MAX_RECORD_CHARS,
	});
	parser.on('skip', (error: CsvError & { lines: number; records: number }) => skipped.push(error));
	const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
	stream.on('error', (error) => parser.destroy(error));
	stream.pipe(parser);

	// Records are taken from the parser's buffer with read(), waiting only when it is empty:
	// an async iterator costs a promise and a turn of the microtask queue per record, which
	// on a large file was a good share of the reading thread's time.
	let ended = false;
	let failure: Error | undefined;
	let wake: (() => void) | undefined;
	const rouse = () => wake?.();
	parser.on('readable', rouse);
	parser.on('end', () => {
		ended = true;
		rouse();
	});
	parser.on('error', (error: Error) => {
		failure = error;
		rouse();
	});
	const more = () =>
		new Promise<void>((resolve) => {
			wake = () => {
				wake = undefined;
				resolve();
			};
		});

	let consumed = 0;
	let nextLine = 1;
	const AT_END = Symbol('end');
	/** The next item already parsed: a pending error, a record, AT_END, or undefined while the parser waits for input. Empty lines are passed over. */
	function ready(): CsvItem | typeof AT_END | undefined {
		for (;;) {
			if (skipped.length > 0 && skipped[0].records <= consumed) {
				const error = skipped.shift()!;
				const item = { line: nextLine, endLine: Math.max(nextLine, error.lines), error: error.message };
				nextLine = item.endLine + 1;
				return item;
			}
			const fields = parser.read() as string[] | null;
			if (fields === null) {
				if (failure) throw failure;
				if (!ended) return undefined;
				if (skipped.length > 0) continue;
				return AT_END;
			}
			consumed++;
			const line = nextLine;
			nextLine += 1 + newlines(fields);
			if (fields.length === 1 && fields[0] === '') continue;
			return { line, fields };
		}
	}

	/** The next item in file order, or undefined at the end. */
	async function next(): Promise<CsvItem | undefined> {
		for (;;) {
			const item = ready();
			if (item === AT_END) return undefined;
			if (item !== undefined) return item;
			await more();
		}
	}

	const close = () => {
		stream.destroy();
		parser.destroy();
	};
	let first: CsvItem | undefined;
	try {
		first = await next();
	} catch (error) {
		close();
		throw new FatalError(`cannot read the CSV file ${path}: ${(error as Error).message}`);
	}
	if (first === undefined) throw new FatalError(`the CSV file ${path} is empty: it needs a header line and rows`);
	if (isCsvError(first)) {
		close();
		throw new FatalError(`the header of ${path} (line ${first.line}) cannot be read: ${first.error}`);
	}
	const header = first.fields.map((h, i) => h.trim() || `column ${i + 1}`);

	async function* batches(): AsyncGenerator<CsvItem[]> {
		let batch: CsvItem[] = [];
		for (;;) {
			const item = ready();
			if (item === AT_END) break;
			if (item === undefined) {
				await more();
				continue;
			}
			batch.push(item);
			if (batch.length >= BATCH) {
				yield batch;
				batch = [];
			}
		}
		if (batch.length > 0) yield batch;
	}
	return { header, delimiter: sep, size, batches: batches(), bytesRead: () => parser.info.bytes, close };
}

function newlines(fields: string[]): number {
	let n = 0;
	for (const f of fields) {
		for (let i = f.indexOf('\n'); i >= 0; i = f.indexOf('\n', i + 1)) n++;
	}
	return n;
}
