import type { Pool, PoolClient, QueryConfig } from 'pg';
import {
	POSTGRES,
	driveAsync,
	steps,
	type SqlDb,
	type Statement,
	type Step,
	type TxMode,
	type Work,
} from '../work';
import { lostConnection, transaction } from './pgDatabase';
import { PgGroupCommit } from './pgGroupCommit';

/** Statement names by their text: each connection parses and plans a statement once, not at every run. */
const names = new Map<string, string>();

/** Runs one statement of a unit of work on a connection (or the pool). */
function pgExec(db: Pool | PoolClient, s: Statement): Promise<unknown> {
	let name = names.get(s.sql);
	if (name === undefined) names.set(s.sql, (name = `cloudtel_${names.size}`));
	const query: QueryConfig = { name, text: s.sql, values: s.args };
	if (s.kind === 'raw') return db.query({ ...query, rowMode: 'array' }).then((r) => r.rows);
	return db
		.query(query)
		.then((r) => (s.kind === 'run' ? (r.rowCount ?? 0) : s.kind === 'get' ? r.rows[0] : r.rows));
}

/**
 * A Postgres pool running units of work. Every commit but a lazy one is durable when it
 * returns (Postgres's default); grouped and synced writes share commits (pgGroupCommit.ts).
 */
export class PgDb implements SqlDb {
	readonly dialect = POSTGRES;
	private closed = false;
	private grouped: PgGroupCommit | undefined;

	constructor(readonly pool: Pool) {}

	run<T>(work: Work<T>): Promise<T> {
		return driveAsync(work, (s) => pgExec(this.pool, s));
	}

	tx<T>(work: Work<T>, mode: TxMode = 'write'): Promise<T> {
		return transaction(this.pool, async (client) => {
			// Not waited onto disk, as SQLite's settle is not (its WAL commits at synchronous =
			// NORMAL): a settle lost to a crash leaves its chunk on its way, which recovery turns
			// uncertain, the same as a crash while the request was out. The next ordinary commit
			// flushes it with its own WAL anyway.
			if (mode === 'lazy') await client.query('SET LOCAL synchronous_commit = off');
			return driveAsync(work, (s) => pgExec(client, s));
		});
	}

	write(list: readonly Step[], mode?: TxMode): Promise<number[]> {
		if (mode === 'grouped' || mode === 'synced')
			return (this.grouped ??= new PgGroupCommit(this)).write(list);
		// One statement is a transaction of its own: no BEGIN and COMMIT around it.
		return list.length === 1 && typeof list[0] !== 'function'
			? this.run(steps(list))
			: this.tx(steps(list), mode);
	}

	async durableTx<T>(work: Work<T>): Promise<{ result: T; durable: Promise<void> }> {
		return { result: await this.tx(work), durable: Promise.resolve() };
	}

	async sync(): Promise<void> {}

	/**
	 * A session's advisory lock on a connection of its own, held while `work` runs on others:
	 * a process that dies, or loses that connection, lets go of it with the connection.
	 */
	async alone<T>(name: string, work: () => Promise<T>): Promise<T | 'busy'> {
		const client = await this.pool.connect();
		let broken = false;
		const onError = () => (broken = true);
		client.on('error', onError);
		try {
			const { rows } = await client.query<{ got: boolean }>(
				'SELECT pg_try_advisory_lock(hashtext($1)) AS got',
				[name],
			);
			if (!rows[0].got) return 'busy';
			try {
				return await work();
			} finally {
				await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(onError);
			}
		} catch (error) {
			if (lostConnection(error)) broken = true;
			throw error;
		} finally {
			client.off('error', onError);
			client.release(broken ? true : undefined);
		}
	}

	async reclaim(tables: readonly string[]): Promise<boolean> {
		// Outside any transaction, as VACUUM must be; not FULL, whose lock would stop every worker.
		for (const table of tables) await this.pool.query(`VACUUM ${table}`);
		return true;
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}
}
