import type Database from 'better-sqlite3';
import { SqlLedger } from '../sqlLedger';
import { openDatabase } from './openDatabase';
import { SqliteDb } from './sqliteDb';

/**
 * The ledger in one SQLite file, in WAL mode so `campaign status` reads while a run writes.
 * Commits are NORMAL (a crash of the process loses nothing; power loss may lose the last
 * import batch, which is simply read again), except the `submitting` mark, which is synced
 * before the request leaves (durableTx). Opening it makes or upgrades its schema
 * (openDatabase).
 */
export class SqliteLedger extends SqlLedger {
	/** `readonly` opens an existing ledger for reading only, as `campaign status` does. */
	constructor(path: string, options: { readonly?: boolean } = {}) {
		const db = openDatabase(path, 'the ledger', options);
		// One read transaction for as long as it is open: every figure of a status or a report
		// is of the same moment, however many queries it takes while a run writes.
		if (options.readonly) db.exec('BEGIN');
		super(new SqliteDb(db, path));
	}

	/**
	 * The open connection, for the daemon's tables in the same file. One connection, one
	 * page cache: SQLite drops a connection's whole cache when another one has written, so
	 * the daemon and the ledger, taking turns on two connections, each read back from the
	 * file what the other had just made it forget.
	 */
	connection(): Database.Database {
		return (this.db as SqliteDb).db;
	}
}
