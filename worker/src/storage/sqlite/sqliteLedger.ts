import type Database from 'better-sqlite3';
import { FatalError } from '../../errors';
import { SqlLedger } from '../sqlLedger';
import { SQLITE, driveSync, type LedgerDb, type Statement, type TxMode, type Work } from '../work';
import { INDEXES, SCHEMA, SCHEMA_VERSION, SQLITE_MIGRATIONS } from './ledgerSchema';
import { openDatabase } from './openDatabase';
import { WalSync } from './walSync';

/**
 * The ledger's connection to one SQLite file, in WAL mode so `campaign status` reads while
 * a run writes. Commits are NORMAL (a crash of the process loses nothing; power loss may
 * lose the last import batch, which is simply read again), except the `submitting` mark,
 * which is synced before the request leaves. A unit of work runs synchronously, so no
 * other statement on the connection (the daemon's, sharing it) comes between its own.
 */
class SqliteLedgerDb implements LedgerDb {
	readonly dialect = SQLITE;
	readonly db: Database.Database;
	private readonly statements = new Map<string, Database.Statement>();
	/** Syncs the WAL file, from the first `submitting` mark on; null when the ledger is not in WAL mode. */
	private wal: WalSync | null | undefined;

	constructor(
		private readonly path: string,
		options: { readonly?: boolean },
	) {
		this.db = openDatabase(path, SCHEMA, 'the ledger', options);
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

	private exec(s: Statement): unknown {
		const key = s.kind === 'raw' ? `raw:${s.sql}` : s.sql;
		let statement = this.statements.get(key);
		if (!statement) {
			statement = this.db.prepare(s.sql);
			if (s.kind === 'raw') statement.raw();
			this.statements.set(key, statement);
		}
		// `$1` is a named parameter to SQLite; booleans are 0 and 1.
		const params: Record<string, unknown> = {};
		for (let i = 0; i < s.args.length; i++) params[i + 1] = typeof s.args[i] === 'boolean' ? Number(s.args[i]) : s.args[i];
		const args = s.args.length > 0 ? [params] : [];
		switch (s.kind) {
			case 'run':
				return statement.run(...args).changes;
			case 'get':
				return statement.get(...args);
			default:
				return statement.all(...args);
		}
	}

	async run<T>(work: Work<T>): Promise<T> {
		return driveSync(work, (s) => this.exec(s));
	}

	async tx<T>(work: Work<T>, mode: TxMode = 'write'): Promise<T> {
		const transaction = this.db.transaction(() => driveSync(work, (s) => this.exec(s)));
		if (mode === 'read') return transaction.deferred();
		if (mode !== 'erase') return transaction.immediate();
		// Erased means gone from the file: deleted content is overwritten, and the WAL written
		// back and emptied, not left in free pages for anyone reading the bytes.
		this.db.pragma('secure_delete = ON');
		try {
			const result = transaction.immediate();
			this.db.pragma('wal_checkpoint(TRUNCATE)');
			return result;
		} finally {
			this.db.pragma('secure_delete = OFF');
		}
	}

	async durableTx<T>(work: Work<T>): Promise<{ result: T; durable: Promise<void> }> {
		// Not by a FULL commit where the ledger is in WAL mode: its fsync held the event loop,
		// and with it every answer and request of the run, for the disk's time (1 to 20 ms on a
		// shared disk, once per chunk). The WAL file is synced from the thread pool instead
		// (WalSync, as the daemon's stores do): as durable, while the loop goes on.
		this.wal ??= this.db.pragma('journal_mode', { simple: true }) === 'wal' ? new WalSync(this.path) : null;
		const wal = this.wal;
		if (!wal) this.db.pragma('synchronous = FULL');
		try {
			const result = await this.tx(work);
			return { result, durable: wal ? wal.sync() : Promise.resolve() };
		} finally {
			if (!wal) this.db.pragma('synchronous = NORMAL');
		}
	}

	async close(): Promise<void> {
		this.wal?.close();
		this.wal = undefined;
		if (this.db.open) this.db.close();
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
