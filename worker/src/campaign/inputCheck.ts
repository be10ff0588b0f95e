import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { isStdin } from '../csv/openCsv';
import type { InputMark } from '../storage/ledger';

/**
 * How the CSV differs from what an import read of it, or undefined when its first
 * `mark.bytes` bytes are the same (rows added at the end are no change to what was read).
 * A file that is gone is not compared: a campaign past its import no longer reads it, and
 * an import still under way says it cannot read it.
 */
export async function inputChange(path: string, mark: InputMark): Promise<string | undefined> {
	if (isStdin(path)) return stdinChange(mark);
	let info;
	try {
		info = await stat(path);
	} catch {
		return undefined;
	}
	if (!info.isFile()) return undefined;
	const now = { size: info.size, mtimeMs: Math.floor(info.mtimeMs) };
	const why = `${path} has changed since it was imported (then ${describe(mark)}; now ${describe(now)})`;
	if (info.size < mark.bytes) return why;
	return (await fileMarkHash(path, mark.bytes)) === mark.hash ? undefined : why;
}

/** The hash an input mark holds for a file: the SHA-256 (hex) of its first `bytes` bytes; undefined when it is shorter. */
async function fileMarkHash(path: string, bytes: number): Promise<string | undefined> {
	if (bytes === 0) return createHash('sha256').digest('hex');
	const { hash, read } = await hashOf(
		createReadStream(path, { start: 0, end: bytes - 1 }),
		bytes,
		true,
	);
	return read === bytes ? hash : undefined;
}

/** Standard input read again: its first bytes are compared, the rest left unread. Nothing piped in is not a change. */
async function stdinChange(mark: InputMark): Promise<string | undefined> {
	if (process.stdin.isTTY) return undefined;
	const { hash, read } = await hashOf(process.stdin, mark.bytes, true);
	if (read === 0) return undefined;
	if (read === mark.bytes && hash === mark.hash) return undefined;
	return `standard input differs from what was imported (${read < mark.bytes ? `${count(read)} bytes, fewer than the ${count(mark.bytes)} read then` : `its first ${count(mark.bytes)} bytes differ`})`;
}

function hashOf(stream: Readable, bytes: number): Promise<string>;
function hashOf(
	stream: Readable,
	bytes: number,
	counted: true,
): Promise<{ hash: string; read: number }>;
async function hashOf(
	stream: Readable,
	bytes: number,
	counted = false,
): Promise<string | { hash: string; read: number }> {
	const hasher = createHash('sha256');
	let read = 0;
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		const part = chunk.subarray(0, bytes - read);
		hasher.update(part);
		read += part.length;
		if (read >= bytes) break;
	}
	const hash = hasher.digest('hex');
	return counted ? { hash, read } : hash;
}

function describe(file: { size: number; mtimeMs?: number }): string {
	return (
		`${count(file.size)} bytes` +
		(file.mtimeMs !== undefined
			? `, modified ${new Date(file.mtimeMs)
					.toISOString()
					.replace('T', ' ')
					.replace(/\.\d+Z$/, ' UTC')}`
			: '')
	);
}

function count(n: number): string {
	return n.toLocaleString('en-US');
}
