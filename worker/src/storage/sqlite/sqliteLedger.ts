import type Database from 'better-sqlite3';
import { FatalError } from '../../errors';
import { SqlLedger } from '../sqlLedger';
import { INDEXES, SCHEMA, SCHEMA_VERSION, SQLITE_MIGRATIONS } from './ledgerSchema';
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
		if (version !== undefined && version > SCHEMA_VERSION) throw new FatalError(`the ledger ${path} was written by a newer cloudtel (schema ${version})`);
		if (version !== SCHEMA_VERSION) this.migrate();
		if (!options.readonly) this.db.exec(INDEXES);
	}

	/** The last version applied; before cloudtel_schema, meta's 'schema'; undefined in a new file. */
	private version(): number | undefined {
		const table = this.db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'cloudtel_schema'`).get() ? '(SELECT MAX(version) FROM cloudtel_schema)' : 'NULL';
		const v = this.db.prepare(`SELECT COALESCE(${table}, (SELECT value FROM meta WHERE key = 'schema'))`).pluck().get() as string | number | null;
		return v === null ? undefined : Number(v);
	}

	/** Another process may open the same file at the same moment: the version is read again under the write lock. */
	private migrate(): void {
		this.db
			.transaction(() => {
				const version = this.version();
				const record = (v: number) => this.db.prepare(`INSERT OR IGNORE INTO cloudtel_schema (version, applied_at) VALUES (?, ?)`).run(v, Date.now());
				// A new file has this release's tables already (SCHEMA).
				if (version === undefined) record(SCHEMA_VERSION);
				else if (version < SCHEMA_VERSION) record(version);
				for (const step of SQLITE_MIGRATIONS) {
					if (version === undefined || step.version <= version) continue;
					if (step.sql) this.db.exec(step.sql);
					for (const [table, column, type] of step.columns ?? []) {
						const columns = this.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table);
						if (!columns.includes(column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type ?? 'INTEGER'}`);
					}
					record(step.version);
				}
				this.db.prepare(`INSERT INTO meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(String(SCHEMA_VERSION));
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
