import type Database from 'better-sqlite3';
import { FatalError } from '../../errors';
import { SqlLedger } from '../sqlLedger';
import { INDEXES, MIGRATE_FROM_1, MIGRATE_FROM_2, SCHEMA, SCHEMA_VERSION } from './ledgerSchema';
import { openDatabase } from './openDatabase';
import { SqliteDb } from './sqliteDb';

/**
 * The ledger's connection to one SQLite file, in WAL mode so `campaign status` reads while
 * a run writes. Commits are NORMAL (a crash of the process loses nothing; power loss may
 * lose the last import batch, which is simply read again), except the `submitting` mark,
 * which is synced before the request leaves (durableTx). Opening it migrates its schema.
 */
class SqliteLedgerDb extends SqliteDb {
	constructor(path: string, options: { readonly?: boolean }) {
		super(openDatabase(path, SCHEMA, 'the ledger', options), path);
		// One read transaction for as long as it is open: every figure of a status or a report
		// is of the same moment, however many queries it takes while a run writes.
		if (options.readonly) this.db.exec('BEGIN');
		const version = this.version();
		if (options.readonly && version !== SCHEMA_VERSION) throw new FatalError(`the ledger ${path} has schema ${version ?? 'none'}, this cloudtel reads ${SCHEMA_VERSION}: open it once with a writable campaign run to upgrade it`);
		if (version === undefined) this.db.prepare(`INSERT INTO meta (key, value) VALUES ('schema', ?)`).run(String(SCHEMA_VERSION));
		else if (version > SCHEMA_VERSION) throw new FatalError(`the ledger ${path} was written by a newer cloudtel (schema ${version})`);
		else if (version < SCHEMA_VERSION) this.migrate();
		if (!options.readonly) this.db.exec(INDEXES);
	}

	private version(): number | undefined {
		const v = this.db.prepare(`SELECT value FROM meta WHERE key = 'schema'`).pluck().get() as string | undefined;
		return v === undefined ? undefined : Number(v);
	}

	/** Another process may open the same file at the same moment: the version is read again under the write lock. */
	private migrate(): void {
		this.db
			.transaction(() => {
				const version = this.version()!;
				if (version === 1) this.db.exec(MIGRATE_FROM_1);
				if (version <= 2) this.db.exec(MIGRATE_FROM_2);
				// Schema 4: when answers were stored and receipts received; schema 5: when a
				// receipt's message was sent; schema 6: when a chunk's request left, and an uncertain
				// row's; schema 7: what an import had read of its CSV; schema 8: the worker of a
				// chunk. A file older than these tables got them, columns included, from SCHEMA.
				for (const [table, column, type] of [
					['answers', 'at'],
					['deliveries', 'received_at'],
					['deliveries', 'sent_at'],
					['submissions', 'at'],
					['recipients', 'attempted_at'],
					['campaigns', 'input_bytes'],
					['campaigns', 'input_hash', 'TEXT'],
					['campaigns', 'input_size'],
					['campaigns', 'input_mtime'],
					['submissions', 'worker', 'TEXT'],
				]) {
					const columns = this.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table);
					if (!columns.includes(column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type ?? 'INTEGER'}`);
				}
				if (version < SCHEMA_VERSION) this.db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema'`).run(String(SCHEMA_VERSION));
			})
			.immediate();
	}
}

/** The ledger in one SQLite file. */
export class SqliteLedger extends SqlLedger {
	/** `readonly` opens an existing ledger for reading only, as `campaign status` does. */
	constructor(path: string, options: { readonly?: boolean } = {}) {
		super(new SqliteLedgerDb(path, options));
	}

	/**
	 * The open connection, for the daemon's tables in the same file. One connection, one
	 * page cache: SQLite drops a connection's whole cache when another one has written, so
	 * the daemon and the ledger, taking turns on two connections, each read back from the
	 * file what the other had just made it forget.
	 */
	connection(): Database.Database {
		return (this.db as SqliteLedgerDb).db;
	}
}
