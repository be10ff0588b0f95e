import { existsSync, type WriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { FatalError, UsageError } from '../errors';
import type { LedgerRow } from '../storage/ledger';
import { createPrivateStream, PRIVATE_MODE } from '../storage/privateFile';
import { spreadsheetSafe } from './spreadsheetSafe';

export interface OutLine {
	line: number;
	to?: string;
	status: string;
	messageSid?: string;
	errorCode?: string;
	message?: string;
	/** A dry run's: the message as it would be sent, and its segments. */
	text?: string;
	segments?: number;
}

export const OUT_HEADER = 'row,To,status,MessageSid,ErrorCode,message';
/** A dry run's --out also has each valid row's message: a list can be proofread to its last line. */
export const DRY_RUN_OUT_HEADER = `${OUT_HEADER},text,segments`;

function cell(value: string | number | undefined): string {
	if (value === undefined) return '';
	const s = spreadsheetSafe(String(value));
	return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A ledger row as --out and the dashboard's outcome CSV tell it. */
export function outRecordOf(row: LedgerRow): OutLine {
	return {
		line: row.line,
		to: row.to,
		status: row.status,
		messageSid: row.messageSid,
		errorCode: row.errorCode,
		message: row.message,
	};
}

/** One row of --out (and of the dashboard's outcome CSV), without its line end. */
export function outLine(row: OutLine, withText = false): string {
	const text = withText ? `,${cell(row.text)},${cell(row.segments)}` : '';
	return `${row.line},${cell(row.to)},${cell(row.status)},${cell(row.messageSid)},${cell(row.errorCode)},${cell(row.message)}${text}`;
}

/** --out is written at the end of a run: a path that cannot take it is found before anything is sent. */
export async function checkOutPath(path: string): Promise<void> {
	const existed = existsSync(path);
	try {
		const handle = await open(path, 'a', PRIVATE_MODE);
		await handle.close();
		if (!existed) await rm(path, { force: true });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why =
			code === 'ENOENT'
				? 'its directory does not exist'
				: code === 'EISDIR'
					? 'it is a directory'
					: code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
						? 'permission denied'
						: (error as Error).message;
		throw new UsageError(`--out ${path} cannot be written: ${why}`);
	}
}

/** --out: one CSV line per input row, `row` being the line the row starts on in the input. */
export class OutFile {
	private readonly stream: WriteStream;
	private failure: Error | undefined;

	constructor(
		readonly path: string,
		private readonly withText = false,
	) {
		this.stream = createPrivateStream(path, '--out');
		this.stream.on('error', (error) => (this.failure = error));
		this.stream.write((withText ? DRY_RUN_OUT_HEADER : OUT_HEADER) + '\n');
	}

	async write(row: OutLine): Promise<void> {
		if (this.failure) throw new FatalError(`cannot write ${this.path}: ${this.failure.message}`);
		const ok = this.stream.write(outLine(row, this.withText) + '\n');
		if (!ok) await once(this.stream, 'drain');
	}

	async close(): Promise<void> {
		this.stream.end();
		await once(this.stream, 'finish').catch(() => undefined);
		if (this.failure) throw new FatalError(`cannot write ${this.path}: ${this.failure.message}`);
	}
}
