import { hostname } from 'node:os';
import type { Pool } from 'pg';
import { ANSWER_LOST } from '../../ledger/pgLedger';
import { transaction } from './pgDatabase';
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

/**
 * The leases of the workers sharing one Postgres. Each renews its own; any of them may
 * find one that ran out, and then, in one transaction that only one of them wins, ends
 * it and settles the chunks it had on their way: uncertain, never sent again blindly.
 * The rest of its share is simply still pending, and the others take it.
 */
export class PgCluster {
	private closed = false;

	constructor(private readonly pool: Pool) {}

	async beat(): Promise<void> {
		await this.pool.query(
			`INSERT INTO workers (id, host, pid, started_at, heartbeat_at) VALUES ($1, $2, $3, ${NOW}, ${NOW})
			 ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
			[WORKER_ID, hostname(), process.pid],
		);
	}

	async reap(staleMs: number): Promise<LostWorker[]> {
		return transaction(this.pool, async (db) => {
			const dead = (await db.query<{ id: string; host: string; pid: number }>(`DELETE FROM workers WHERE heartbeat_at < ${NOW} - $1 RETURNING id, host, pid`, [staleMs])).rows;
			if (dead.length === 0) return [];
			const ids = dead.map((w) => w.id);
			// A receipt proves its message went out, whatever became of the answer.
			const accepted = await db.query<{ campaign: string; line: number; worker: string }>(
				`UPDATE recipients r SET status = 'accepted', chunk = NULL, error_code = NULL, message = NULL, message_sid = d.message_sid, attempted_at = s.created_at, sent_at = s.created_at
				 FROM submissions s, deliveries d
				 WHERE s.worker = ANY($1::text[]) AND r.campaign = s.campaign AND r.chunk = s.chunk AND r.status = 'submitting' AND d.campaign = r.campaign AND d.line = r.line
				 RETURNING r.campaign, r.line, s.worker`,
				[ids],
			);
			const uncertain = await db.query<{ campaign: string; line: number; worker: string }>(
				`UPDATE recipients r SET status = 'uncertain', chunk = NULL, error_code = NULL, message = $2, attempted_at = s.created_at
				 FROM submissions s
				 WHERE s.worker = ANY($1::text[]) AND r.campaign = s.campaign AND r.chunk = s.chunk AND r.status = 'submitting'
				 RETURNING r.campaign, r.line, s.worker`,
				[ids, `${ANSWER_LOST}: the worker sending it stopped`],
			);
			await db.query('DELETE FROM submissions WHERE worker = ANY($1::text[])', [ids]);
			return dead.map((w) => ({
				...w,
				rows: [...accepted.rows.map((r) => ({ ...r, status: 'accepted' })), ...uncertain.rows.map((r) => ({ ...r, status: 'uncertain' }))]
					.filter((r) => r.worker === w.id)
					.map(({ campaign, line, status }) => ({ campaign, line, status })),
			}));
		});
	}

	/** Live workers, for the health check. */
	async members(staleMs: number): Promise<number> {
		return (await this.pool.query<{ n: number }>(`SELECT COUNT(*) AS n FROM workers WHERE heartbeat_at >= ${NOW} - $1`, [staleMs])).rows[0].n;
	}

	/** A graceful stop: nothing of ours is on its way any more. */
	async leave(): Promise<void> {
		await this.pool.query('DELETE FROM workers WHERE id = $1', [WORKER_ID]);
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}
}
