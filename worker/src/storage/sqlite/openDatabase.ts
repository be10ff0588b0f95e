import Database from 'better-sqlite3';
import { FatalError } from '../../errors';
import { checkSchema, migrateSchema } from '../migrateSchema';
import { SQLITE, driveSync, type Statement } from '../work';
import { openReadOnly } from './openReadOnly';
import { execPrepared } from './sqliteDb';
import { ensurePrivateFile, warnIfShared } from '../privateFile';

/**
 * Opens the worker's SQLite file the way every store uses it, its schema made or upgraded
 * (migrateSchema.ts): WAL, so readers (status, the webhook server) never block the writer;
 * commits synced only where a caller asks for it; a wait rather than an error when another
 * connection holds the lock. `what` names the file for the person reading the error.
 */
export function openDatabase(
	path: string,
	what: string,
	options: { readonly?: boolean } = {},
): Database.Database {
	let db: Database.Database;
	try {
		// Reading only (campaign status): a file the user may not write to, and no schema to create.
		if (options.readonly) db = openReadOnly(path);
		else {
			// Created private before SQLite opens it: its -wal and -shm take the database's mode.
			if (path !== ':memory:' && !ensurePrivateFile(path))
				for (const file of [path, `${path}-wal`, `${path}-shm`]) warnIfShared(file, what);
			db = new Database(path);
			db.pragma('busy_timeout = 10000');
		}
	} catch (error) {
		throw new FatalError(`cannot open ${what} ${path}: ${(error as Error).message}`);
	}
	try {
		const where = `${what} ${path}`;
		const exec = (s: Statement) => schemaStatement(db, s);
		// Checked before anything is written, WAL mode included: a file this build refuses is left as it was.
		const migrate = whileLocked(() =>
			driveSync(checkSchema(SQLITE, where, options.readonly === true), exec),
		);
		if (!options.readonly) {
			// Two processes opening a new file at once: one switching it to WAL needs it to
			// itself, and SQLite answers the other "locked" at once, without its busy_timeout.
			whileLocked(() => db.pragma('journal_mode = WAL'));
			db.pragma('synchronous = NORMAL');
		}
		if (migrate) db.transaction(() => driveSync(migrateSchema(SQLITE, where), exec)).immediate();
		return db;
	} catch (error) {
		db.close();
		throw error instanceof FatalError
			? error
			: new FatalError(`cannot open ${what} ${path}: ${(error as Error).message}`);
	}
}

const LOCKED_WAIT_MS = 10_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Tries again, for as long as busy_timeout would wait, what SQLite refuses at once while another connection switches the file's journal mode. */
function whileLocked<T>(work: () => T): T {
	const end = Date.now() + LOCKED_WAIT_MS;
	for (;;) {
		try {
			return work();
		} catch (error) {
			const code = (error as { code?: string }).code;
			if ((code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') || Date.now() > end) throw error;
			Atomics.wait(pause, 0, 0, 20);
		}
	}
}

/** A statement of the schema's units of work; a `run` without arguments may hold several (DDL). */
function schemaStatement(db: Database.Database, s: Statement): unknown {
	if (s.kind === 'run' && s.args.length === 0) {
		db.exec(s.sql);
		return 0;
	}
	return execPrepared(db.prepare(s.sql), s);
}
