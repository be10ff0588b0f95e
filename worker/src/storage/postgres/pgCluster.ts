import { hostname } from 'node:os';
import type { Pool } from 'pg';
import { ANSWER_LOST, ledgerSql } from '../ledgerSql';
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
	ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`;

/**
 * The leases of the workers sharing one Postgres. Each renews its own; any of them may
 * find one that ran out, and then, in one transaction that only one of them wins, ends
 * it and settles the chunks it had on their way: uncertain, never sent again blindly.
 * The rest of its share is simply still pending, and the others take it.
 */
export class PgCluster {
	private readonly q = ledgerSql(POSTGRES);
	private readonly db: PgDb;

	constructor(pool: Pool) {
		this.db = new PgDb(pool);
	}

	async beat(): Promise<void> {
		await this.db.run(run(BEAT, WORKER_ID, hostname(), process.pid));
	}

	async reap(staleMs: number): Promise<LostWorker[]> {
		const q = this.q;
		return this.db.tx(
			(function* (): Work<LostWorker[]> {
				const dead = yield* all<{ id: string; host: string; pid: number }>(`DELETE FROM workers WHERE heartbeat_at < ${NOW} - $1 RETURNING id, host, pid`, staleMs);
				const lost: LostWorker[] = [];
				for (const w of dead) {
					const rows: LostWorker['rows'] = [];
					for (const s of yield* all<{ campaign: string; chunk: number; first: number; last: number; at: number }>(`SELECT campaign, chunk, first, last, at FROM submissions WHERE worker = $1`, w.id)) {
						for (const r of yield* recoverChunk(q, s.campaign, s, `${ANSWER_LOST}: the worker sending it stopped`)) rows.push({ campaign: s.campaign, ...r });
					}
					lost.push({ ...w, rows });
				}
				return lost;
			})(),
		);
	}

	/** Live workers, for the health check. */
	async members(staleMs: number): Promise<number> {
		return (await this.db.run(get<{ n: number }>(`SELECT COUNT(*) AS n FROM workers WHERE heartbeat_at >= ${NOW} - $1`, staleMs)))!.n;
	}

	/** A graceful stop: nothing of ours is on its way any more. */
	async leave(): Promise<void> {
		await this.db.run(run('DELETE FROM workers WHERE id = $1', WORKER_ID));
	}

	close(): Promise<void> {
		return this.db.close();
	}
}
