import {
	closeSync,
	constants,
	createWriteStream,
	openSync,
	statSync,
	writeFileSync,
	type WriteStream,
} from 'node:fs';

/**
 * Files holding personal data (the ledger and its -wal and -shm, --out, --html, the spool)
 * are read and written by their owner only: they hold phone numbers, whole texts and the
 * suppression list, and a umask of 022 would leave them readable by every local user.
 */
export const PRIVATE_MODE = 0o600;

/** Where a warning about a shared file goes: stderr, or the daemon's log once it runs. */
let warnSink: (message: string) => void = (message) =>
	process.stderr.write(`cloudtel: warning: ${message}\n`);
const warned = new Set<string>();

export function setPrivateFileWarnings(sink: (message: string) => void): void {
	warnSink = sink;
}

/**
 * Creates the file, empty and private, unless it exists. True when it was created. An
 * existing file is left as its owner set it, but warned about (warnIfShared).
 */
export function ensurePrivateFile(path: string): boolean {
	try {
		closeSync(
			openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_MODE),
		);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
}

/** writeFileSync, private when it creates the file. */
export function writePrivateFile(path: string, data: string | Uint8Array): void {
	writeFileSync(path, data, { mode: PRIVATE_MODE });
}

/** createWriteStream, private when it creates the file; an existing one is warned about. */
export function createPrivateStream(path: string, what: string, flags = 'w'): WriteStream {
	warnIfShared(path, what);
	return createWriteStream(path, { flags, mode: PRIVATE_MODE });
}

/**
 * Warns, once per file and process, when a file holding personal data may be read by
 * others than its owner. Not changed: a group may have been given it on purpose.
 */
export function warnIfShared(path: string, what: string): void {
	if (warned.has(path)) return;
	let mode: number;
	try {
		mode = statSync(path).mode & 0o777;
	} catch {
		return;
	}
	if ((mode & 0o077) === 0) return;
	warned.add(path);
	warnSink(
		`${what} ${path} can be read by others than its owner (mode ${mode.toString(8).padStart(3, '0')}); it holds phone numbers and message texts: chmod 600 it`,
	);
}
