import type Database from 'better-sqlite3';
import {
	SQLITE,
	driveSync,
	steps,
	type SqlDb,
	type Statement,
	type Step,
	type TxMode,
	type Work,
} from '../work';
import { GroupCommit } from './groupCommit';
import { WalSync } from './walSync';

/**
 * One SQLite connection running units of work. A unit runs synchronously, inside one
 * better-sqlite3 transaction, so no other statement on the connection (the ledger's and
 * the daemon's stores share it) comes between its own. Commits are NORMAL (a crash of the
 * process loses nothing, a power cut may lose the last few); a durable one is synced off
 * the event loop (WalSync), several sharing one fsync.
 */
export class SqliteDb implements SqlDb {
	readonly dialect = SQLITE;
	private readonly statements = new Map<string, Database.Statement>();
	/** Syncs the WAL file; null when the file is not in WAL mode. Made at the first durable commit. */
	private walSync: WalSync | null | undefined;
	private grouped: GroupCommit | undefined;
	private synced: GroupCommit | undefined;

	/** `owned`: closed with this; false for a connection lent by the ledger, which stays the ledger's to close. */
	constructor(
		readonly db: Database.Database,
		private readonly path: string,
		private readonly owned = true,
	) {}

	private wal(): WalSync | null {
		return (this.walSync ??=
			this.db.pragma('journal_mode', { simple: true }) === 'wal' ? new WalSync(this.path) : null);
	}

	private exec(s: Statement): unknown {
		const key = s.kind === 'raw' ? `raw:${s.sql}` : s.sql;
		let statement = this.statements.get(key);
		if (!statement) {
			statement = this.db.prepare(s.sql);
			if (s.kind === 'raw') statement.raw();
			this.statements.set(key, statement);
		}
		return execPrepared(statement, s);
	}

	async run<T>(work: Work<T>): Promise<T> {
		return driveSync(work, (s) => this.exec(s));
	}

	async tx<T>(work: Work<T>, mode: TxMode = 'write'): Promise<T> {
		const unit = () => driveSync(work, (s) => this.exec(s));
		if (mode === 'grouped') return (this.grouped ??= new GroupCommit(this.db)).run(unit);
		if (mode === 'synced') {
			const wal = this.wal();
			// A file not in WAL mode has no WAL to sync: its commit is a FULL one (durableTx).
			if (!wal) return (await this.durableTx(work)).result;
			return (this.synced ??= new GroupCommit(this.db, wal)).run(unit);
		}
		const transaction = this.db.transaction(unit);
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

	write(list: readonly Step[], mode?: TxMode): Promise<number[]> {
		return this.tx(steps(list), mode);
	}

	async durableTx<T>(work: Work<T>): Promise<{ result: T; durable: Promise<void> }> {
		// Not by a FULL commit where the file is in WAL mode: its fsync held the event loop,
		// and with it every answer and request of a run, for the disk's time (1 to 20 ms on a
		// shared disk, once per chunk). The WAL file is synced from the thread pool instead:
		// as durable, while the loop goes on.
		const wal = this.wal();
		if (!wal) this.db.pragma('synchronous = FULL');
		try {
			const result = await this.tx(work);
			return { result, durable: wal ? wal.sync() : Promise.resolve() };
		} finally {
			if (!wal) this.db.pragma('synchronous = NORMAL');
		}
	}

	async sync(): Promise<void> {
		await this.wal()?.sync();
	}

	alone<T>(_name: string, work: () => Promise<T>): Promise<T> {
		return work();
	}

	async reclaim(): Promise<boolean> {
		// secure_delete zeroes only what one transaction deletes; copies an UPDATE or a page
		// split left behind earlier stay in free space until the file is built anew.
		this.db.pragma('secure_delete = ON');
		try {
			this.db.exec('VACUUM');
			const [done] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
			return (done?.busy ?? 0) === 0;
		} finally {
			this.db.pragma('secure_delete = OFF');
		}
	}

	async close(): Promise<void> {
		this.walSync?.close();
		this.walSync = undefined;
		if (this.owned && this.db.open) this.db.close();
	}
}

/** Runs a statement of a unit of work, prepared: `$1` is a named parameter to SQLite; booleans are 0 and 1. */
export function execPrepared(statement: Database.Statement, s: Statement): unknown {
	const params: Record<string, unknown> = {};
	for (let i = 0; i < s.args.length; i++)
		params[i + 1] = typeof s.args[i] === 'boolean' ? Number(s.args[i]) : s.args[i];
	const args = s.args.length > 0 ? [params] : [];
	return s.kind === 'run'
		? statement.run(...args).changes
		: s.kind === 'get'
			? statement.get(...args)
			: statement.all(...args);
}
