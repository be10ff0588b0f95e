import { hostname } from 'node:os';
import type { Pool } from 'pg';
import { ANSWER_LOST, CALLBACKS_IN, ledgerSql } from '../ledgerSql';
import { recoverChunk } from '../sqlLedger';
import { POSTGRES, all, get, run, type Work } from '../work';
import { PgDb } from './pgDb';
import { WORKER_ID } from '../workerId';

/** A worker that stopped renewing its lease, and the rows it had on their way. */
export interface LostWorker {
	id: string;
	host: string;
	pid: number;
	/** Rows of its chunks in flight, now uncertain (or accepted, where a receipt has come). */
	rows: { campaign: string; line: number; status: string }[];
}

// Postgres's clock for every lease: the machines' clocks need not agree.
const NOW = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;
const BEAT = `INSERT INTO workers (id, host, pid, started_at, heartbeat_at) VALUES ($1, $2, $3, ${NOW}, ${NOW})
	ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at RETURNING heartbeat_at AS at`;
/** Beats remembered, to tell how long this worker has reached the database without a gap. */
const BEATS_KEPT = 64;

/**
 * The leases of the workers sharing one Postgres. Each renews its own; any of them may
 * find one that ran out, and then, in one transaction that only one of them wins, ends
 * it and settles the chunks it had on their way: uncertain, never sent again blindly.
 * The rest of its share is simply still pending, and the others take it.
 *
 * A lease is judged only over time the judge itself reached the database without a gap:
 * an outage all of them shared (a Postgres restart) stops every beat, and a live worker
 * cut off with the rest is not reaped the moment the database is back (issue 33: its
 * forward, sent but not yet recorded, was sent again by the reaper).
 */
export class PgCluster {
	private readonly q = ledgerSql(POSTGRES);
	private readonly db: PgDb;
	/** This worker's last beats, by the database's clock, oldest first. */
	private readonly beats: number[] = [];

	constructor(
		pool: Pool,
		/** Whose lease this is: this process's, unless a test plays several workers. */
		private readonly id = WORKER_ID,
	) {
		this.db = new PgDb(pool);
	}

	async beat(): Promise<void> {
		const { at } = (await this.db.run(
			get<{ at: number }>(BEAT, this.id, hostname(), process.pid),
		))!;
		this.beats.push(at);
		if (this.beats.length > BEATS_KEPT) this.beats.shift();
	}

	/** Since when this worker has beaten with no gap over `gapMs`, by the database's clock; undefined before its first beat. */
	private reachedSince(gapMs: number): number | undefined {
		let i = this.beats.length - 1;
		if (i < 0) return undefined;
		while (i > 0 && this.beats[i] - this.beats[i - 1] <= gapMs) i--;
		return this.beats[i];
	}

	/**
	 * Ends the leases not renewed for `staleMs` and settles their chunks; nothing while this
	 * worker has not itself reached the database throughout the last `staleMs` (beats no
	 * further apart than half of it).
	 */
	async reap(staleMs: number): Promise<LostWorker[]> {
		const q = this.q;
		const gap = staleMs / 2;
		const since = this.reachedSince(gap);
		const last = this.beats[this.beats.length - 1];
		if (since === undefined) return [];
		return this.db.tx(
			(function* (): Work<LostWorker[]> {
				const now = (yield* get<{ now: number }>(`SELECT ${NOW} AS now`))!.now;
				if (now - last > gap || now - since < staleMs) return [];
				const dead = yield* all<{ id: string; host: string; pid: number }>(
					`DELETE FROM workers WHERE heartbeat_at < $1 RETURNING id, host, pid`,
					now - staleMs,
				);
				const lost: LostWorker[] = [];
				for (const w of dead) {
					// A dead worker says no more that its callbacks are in: runs stop waiting for it.
					yield* run(q.dropCallbacksStamp, `${CALLBACKS_IN}${w.id}`);
					const rows: LostWorker['rows'] = [];
					for (const s of yield* all<{
						campaign: string;
						chunk: number;
						first: number;
						last: number;
						at: number;
					}>(`SELECT campaign, chunk, first, last, at FROM submissions WHERE worker = $1`, w.id)) {
						for (const r of yield* recoverChunk(
							q,
							s.campaign,
							s,
							`${ANSWER_LOST}: the worker sending it stopped`,
						))
							rows.push({ campaign: s.campaign, ...r });
					}
					lost.push({ ...w, rows });
				}
				return lost;
			})(),
		);
	}

	/** Live workers, for the health check. */
	async members(staleMs: number): Promise<number> {
		return (await this.db.run(
			get<{ n: number }>(
				`SELECT COUNT(*) AS n FROM workers WHERE heartbeat_at >= ${NOW} - $1`,
				staleMs,
			),
		))!.n;
	}

	/** A graceful stop: nothing of ours is on its way any more. */
	async leave(): Promise<void> {
		await this.db.run(run('DELETE FROM workers WHERE id = $1', this.id));
	}

	close(): Promise<void> {
		return this.db.close();
	}
}
