import type { Pool, PoolClient, QueryConfig } from 'pg';
import type { ClaimedChunk, SharedLedger } from '../sharedLedger';
import { SUPPRESSED } from '../ledgerSql';
import { SqlLedger, pendingRow } from '../sqlLedger';
import { POSTGRES, all, driveAsync, get, raw, run, type LedgerDb, type Statement, type TxMode, type Work } from '../work';
import { WORKER_ID } from '../workerId';
import { transaction } from './pgDatabase';

/** Runs one statement of a unit of work on a connection (or the pool). */
export function pgExec(db: Pool | PoolClient, s: Statement): Promise<unknown> {
	const query: QueryConfig = { text: s.sql, values: s.args };
	if (s.kind === 'raw') return db.query({ ...query, rowMode: 'array' }).then((r) => r.rows);
	return db.query(query).then((r) => (s.kind === 'run' ? (r.rowCount ?? 0) : s.kind === 'get' ? r.rows[0] : r.rows));
}

/** Runs a unit of work in one transaction of the pool. */
export function pgTx<T>(pool: Pool, work: Work<T>, mode: TxMode = 'write'): Promise<T> {
	return transaction(pool, async (client) => {
		// Not waited onto disk, as SQLite's settle is not (its WAL commits at synchronous =
		// NORMAL): a settle lost to a crash leaves its chunk on its way, which recovery turns
		// uncertain, the same as a crash while the request was out. The next ordinary commit
		// flushes it with its own WAL anyway.
		if (mode === 'lazy') await client.query('SET LOCAL synchronous_commit = off');
		return driveAsync(work, (s) => pgExec(client, s));
	});
}

/** Every commit but a lazy one is durable when it returns (Postgres's default). */
class PgLedgerDb implements LedgerDb {
	readonly dialect = POSTGRES;
	private closed = false;

	constructor(readonly pool: Pool) {}

	run<T>(work: Work<T>): Promise<T> {
		return driveAsync(work, (s) => pgExec(this.pool, s));
	}

	tx<T>(work: Work<T>, mode?: TxMode): Promise<T> {
		return pgTx(this.pool, work, mode);
	}

	async durableTx<T>(work: Work<T>): Promise<{ result: T; durable: Promise<void> }> {
		return { result: await this.tx(work), durable: Promise.resolve() };
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}
}

/**
 * The ledger in Postgres, for workers on several machines: beside the Ledger, chunks
 * claimed by exactly one worker, a rate held across them, and the chunks of all on their way.
 */
export class PgLedger extends SqlLedger implements SharedLedger {
	constructor(pool: Pool) {
		super(new PgLedgerDb(pool));
	}

	/**
	 * The next pending rows no chunk on its way covers, in line order, up to the next such
	 * chunk (a submission is a range), taken as a submission under the campaign's lock, so
	 * claims of one campaign follow one another; rows whose number is now suppressed are
	 * settled so on the way.
	 */
	async claimChunk(name: string, limit: number): Promise<ClaimedChunk> {
		const q = this.q;
		const lock = this.db.dialect.lock!;
		return this.db.tx(
			(function* (): Work<ClaimedChunk> {
				yield* run(lock, `campaign:${name}`);
				const ranges = yield* all<{ first: number }>(q.submissions, name);
				let rows = (yield* raw<Parameters<typeof pendingRow>[0]>(q.claimable, name, limit)).map(pendingRow);
				const end = Math.min(...ranges.map((s) => s.first).filter((first) => rows.length > 0 && first > rows[0].line));
				rows = rows.filter((r) => r.line < end);
				const suppressed = rows.filter((r) => r.suppressed).map((r) => r.line);
				if (suppressed.length > 0) yield* run(q.suppressRows, name, JSON.stringify(suppressed), SUPPRESSED);
				rows = rows.filter((r) => !r.suppressed);
				const chunk = (yield* get<{ n: number }>(`SELECT nextval('chunk_numbers') AS n`))!.n;
				if (rows.length > 0) yield* run(q.addSubmission, name, chunk, rows[0].line, rows[rows.length - 1].line, Date.now(), WORKER_ID);
				return { chunk, rows, suppressed: suppressed.length };
			})(),
		);
	}

	async pace(name: string, count: number, perSecond: number): Promise<number> {
		const cost = (count * 1000) / perSecond;
		// Postgres's clock, not each machine's: the workers' clocks need not agree.
		const r = await this.db.run(
			get<{ wait: number }>(
				`WITH now AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms)
				 INSERT INTO pacing AS p (campaign, next_at) SELECT $1, ms + $2 FROM now
				 ON CONFLICT (campaign) DO UPDATE SET next_at = GREATEST(p.next_at, (SELECT ms FROM now)) + $2
				 RETURNING p.next_at - $2 - (SELECT ms FROM now) AS wait`,
				name,
				cost,
			),
		);
		return Math.max(0, r!.wait);
	}

	async submissionsInFlight(name: string): Promise<number> {
		return (await this.db.run(get<{ n: number }>(this.q.inFlight, name)))!.n;
	}
}
