import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens a WAL database only to read it. SQLite reads a WAL file through a `-shm` beside it,
 * which it must be able to create: in a directory the user may not write to, a snapshot
 * copy (with its `-wal`) is read instead, removed when the process ends.
 */
export function openReadOnly(path: string): Database.Database {
	try {
		const db = new Database(path, { readonly: true, fileMustExist: true });
		db.pragma('busy_timeout = 10000');
		db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
		return db;
	} catch (error) {
		if (!/readonly|unable to open/i.test((error as Error).message) || !existsSync(path)) throw error;
	}
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-read-'));
	process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
	const copy = join(dir, basename(path));
	copyFileSync(path, copy);
	if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
	return new Database(copy, { readonly: true, fileMustExist: true });
}
