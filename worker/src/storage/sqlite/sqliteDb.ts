import type Database from 'better-sqlite3';
import { stepWrite, type Commit, type SqlDb, type Step } from '../sqlDb';
import { GroupCommit } from './groupCommit';
import { WalSync } from './walSync';

/**
 * A SQLite file in WAL mode as a SqlDb. Commits are NORMAL (a crash of the process loses
 * nothing, a power cut may lose the last few), except `durable` ones, synced off the event
 * loop, several sharing one fsync under load (GroupCommit, WalSync).
 */
export class SqliteDb implements SqlDb {
	readonly dialect = 'sqlite';
	private readonly statements = new Map<string, Database.Statement>();
	private readonly wal: WalSync;
	private readonly durable: GroupCommit;
	private readonly grouped: GroupCommit;

	/** `owned`: closed with this; false for a connection lent by the ledger, which stays the ledger's to close. */
	constructor(
		readonly db: Database.Database,
		path: string,
		private readonly owned: boolean,
	) {
		this.wal = new WalSync(path);
		this.durable = new GroupCommit(db, this.wal);
		this.grouped = new GroupCommit(db);
	}

	private statement(sql: string): Database.Statement {
		let s = this.statements.get(sql);
		if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
		return s;
	}

	async all<T>(sql: string, ...args: unknown[]): Promise<T[]> {
		const s = this.statement(sql);
		return (args.length > 0 ? s.all(sqliteParams(args)) : s.all()) as T[];
	}

	async write(steps: readonly Step[], commit?: Commit): Promise<number[]> {
		const run = () => {
			const changed: number[] = [];
			for (const step of steps) {
				const [sql, ...args] = stepWrite(step, changed) ?? [];
				changed.push(sql === undefined ? 0 : this.statement(sql).run(sqliteParams(args)).changes);
			}
			return changed;
		};
		if (commit === 'durable') return this.durable.run(run);
		if (commit === 'grouped') return this.grouped.run(run);
		return this.db.transaction(run)();
	}

	sync(): Promise<void> {
		return this.wal.sync();
	}

	async close(): Promise<void> {
		this.wal.close();
		if (this.owned && this.db.open) this.db.close();
	}
}

/** Positional arguments as the named parameters `$1`, `$2`... better-sqlite3 binds. */
export function sqliteParams(args: readonly unknown[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	args.forEach((v, i) => (out[i + 1] = v));
	return out;
}
