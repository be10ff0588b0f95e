import Database from 'better-sqlite3';
import { FatalError } from '../../errors';
import { openReadOnly } from './openReadOnly';
import { ensurePrivateFile, warnIfShared } from '../privateFile';

/**
 * Opens one of the worker's SQLite files the way all of them are used: WAL, so readers
 * (status, the webhook server) never block the writer; commits synced only where a
 * caller asks for it; a wait rather than an error when another connection holds the lock.
 * `what` names the file for the person reading the error.
 */
export function openDatabase(path: string, schema: string, what: string, options: { readonly?: boolean } = {}): Database.Database {
	try {
		// Reading only (campaign status): a file the user may not write to, and no schema to create.
		if (options.readonly) return openReadOnly(path);
		// Created private before SQLite opens it: its -wal and -shm take the database's mode.
		if (path !== ':memory:' && !ensurePrivateFile(path)) for (const file of [path, `${path}-wal`, `${path}-shm`]) warnIfShared(file, what);
		const db = new Database(path);
		db.pragma('journal_mode = WAL');
		db.pragma('synchronous = NORMAL');
		db.pragma('busy_timeout = 10000');
		db.exec(schema);
		return db;
	} catch (error) {
		throw new FatalError(`cannot open ${what} ${path}: ${(error as Error).message}`);
	}
}
