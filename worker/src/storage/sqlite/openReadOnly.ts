import {
	closeSync,
	copyFileSync,
	existsSync,
	mkdtempSync,
	openSync,
	readSync,
	rmSync,
	statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';

/** Copies tried while a writer keeps changing the ledger, a pause apart. */
const COPY_ATTEMPTS = 40;
const PAUSE_MS = 50;
/**
 * A file's mtime moves in the kernel's clock ticks (a few ms): a write this soon after the
 * last one might leave it unchanged, so a ledger written this recently is not copied yet.
 */
const SETTLED_MS = 30;

/**
 * Opens a WAL database only to read it. SQLite reads a WAL file through a `-shm` beside it,
 * which it must be able to create, or at least read: in a directory the user may not write
 * to, with no run holding the ledger open, a copy (with its `-wal`) is read instead,
 * removed when the process ends. A run may start writing while it is copied, so the copy
 * is kept only when nothing it depends on changed meanwhile; else it is taken again.
 */
export function openReadOnly(path: string): Database.Database {
	for (let attempt = 1; ; attempt++) {
		const inPlace = openInPlace(path);
		if (inPlace) return inPlace;
		const copy = copyUnchanged(path);
		if (copy) return copy;
		if (attempt === COPY_ATTEMPTS)
			throw new Error(
				`it kept changing while it was copied to be read (${COPY_ATTEMPTS} tries); try again when the run writing it is done`,
			);
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);
	}
}

/** The file itself, read-only; undefined when SQLite would need to write beside it. */
function openInPlace(path: string): Database.Database | undefined {
	let db: Database.Database | undefined;
	try {
		db = new Database(path, { readonly: true, fileMustExist: true });
		db.pragma('busy_timeout = 10000');
		db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
		return db;
	} catch (error) {
		db?.close();
		// better-sqlite3's code, extended codes too (SQLITE_READONLY_RECOVERY, SQLITE_CANTOPEN_ISDIR).
		const code = (error as { code?: unknown }).code;
		if (typeof code !== 'string' || !/^SQLITE_(READONLY|CANTOPEN)/.test(code) || !existsSync(path))
			throw error;
		return undefined;
	}
}

let copies: string | undefined;

/**
 * A copy of the database and its WAL that is one moment of the ledger, or undefined when a
 * writer may have torn it. While the WAL keeps its header (the same salts: it was not
 * started again), the WAL copied after the database holds every page a checkpoint wrote
 * into the database meanwhile, and replaces them; without a WAL, the database must not
 * have changed at all.
 */
function copyUnchanged(path: string): Database.Database | undefined {
	const before = fingerprint(path);
	if (before.wal === undefined && Date.now() - before.dbWrittenMs < SETTLED_MS) return undefined;
	if (!copies) {
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-read-'));
		process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
		copies = dir;
	}
	const copy = join(copies, basename(path));
	rmSync(`${copy}-wal`, { force: true });
	rmSync(`${copy}-shm`, { force: true });
	try {
		copyFileSync(path, copy);
		if (before.wal !== undefined) copyFileSync(`${path}-wal`, `${copy}-wal`);
	} catch (error) {
		// The WAL went between the look and the copy: its run closed the ledger.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(path)) return undefined;
		throw error;
	}
	const after = fingerprint(path);
	if (after.wal !== before.wal || (before.wal === undefined && after.db !== before.db))
		return undefined;
	return new Database(copy, { readonly: true, fileMustExist: true });
}

/** The database's identity and last change; the WAL's header (its salts), if it has one. */
function fingerprint(path: string): { db: string; dbWrittenMs: number; wal?: string } {
	const s = statSync(path, { bigint: true });
	return {
		db: `${s.ino}:${s.size}:${s.mtimeNs}`,
		dbWrittenMs: Number(s.mtimeMs),
		wal: walHeader(`${path}-wal`),
	};
}

function walHeader(path: string): string | undefined {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch {
		return undefined;
	}
	try {
		const header = Buffer.alloc(32);
		// Shorter than a header: an empty WAL, as after a checkpoint that truncated it.
		return readSync(fd, header, 0, 32, 0) === 32 ? header.toString('hex') : undefined;
	} finally {
		closeSync(fd);
	}
}
