import { existsSync, type WriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { FatalError, UsageError } from '../campaign/fatalError';
import { createPrivateStream, PRIVATE_MODE } from '../store/privateFile';

export interface OutLine {
	line: number;
	to?: string;
	status: string;
	messageSid?: string;
	errorCode?: string;
	message?: string;
}

export const OUT_HEADER = 'row,To,status,MessageSid,ErrorCode,message';

function cell(value: string | number | undefined): string {
	if (value === undefined) return '';
	const s = String(value);
	return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
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
		const why = code === 'ENOENT' ? 'its directory does not exist' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'permission denied' : (error as Error).message;
		throw new UsageError(`--out ${path} cannot be written: ${why}`);
	}
}

/** --out: one CSV line per input row, `row` being the line the row starts on in the input. */
export class OutFile {
	private readonly stream: WriteStream;
	private failure: Error | undefined;

	constructor(readonly path: string) {
		this.stream = createPrivateStream(path, '--out');
		this.stream.on('error', (error) => (this.failure = error));
		this.stream.write(OUT_HEADER + '\n');
	}

	async write(row: OutLine): Promise<void> {
		if (this.failure) throw new FatalError(`cannot write ${this.path}: ${this.failure.message}`);
		const ok = this.stream.write(`${row.line},${cell(row.to)},${row.status},${cell(row.messageSid)},${cell(row.errorCode)},${cell(row.message)}\n`);
		if (!ok) await once(this.stream, 'drain');
	}

	async close(): Promise<void> {
		this.stream.end();
		await once(this.stream, 'finish').catch(() => undefined);
		if (this.failure) throw new FatalError(`cannot write ${this.path}: ${this.failure.message}`);
	}
}
