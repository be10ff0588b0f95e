import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { FatalError } from '../campaign/fatalError';

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

/** --out: one CSV line per input row, `row` being the line the row starts on in the input. */
export class OutFile {
	private readonly stream: WriteStream;
	private failure: Error | undefined;

	constructor(readonly path: string) {
		this.stream = createWriteStream(path);
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
