import type { Pool, PoolClient } from 'pg';
import type { CallbackEvent } from '../../../../api';
import { transaction } from './pgDatabase';
import { WORKER_ID } from '../workerId';
import { FORWARD_STATES, type CampaignRun, type CompletedEvent, type DaemonStore, type KeyedForward, type ForwardJob, type ForwardState, type StoredEvent } from '../daemonStore';
import { forwardJob, type ForwardRow } from '../forwardRow';
import { DAEMON_SQL as SQL } from '../daemonSql';

/**
 * The daemon's tables in Postgres, shared by every worker on it. Each write that decides
 * who does something is one conditional statement (an insert that may find the key
 * taken, an update from an expected state), so two workers racing for the same callback
 * or forward leave exactly one of them holding it.
 */
export class PgDaemonStore implements DaemonStore {
	private closed = false;

	constructor(private readonly pool: Pool) {}

	async recordEvent(key: string, event: CallbackEvent, receivedAt: number): Promise<boolean> {
		const r = await this.pool.query(SQL.insertEvent, [key, event.kind, JSON.stringify(event), receivedAt]);
		return r.rowCount === 1;
	}

	async unprocessedEvents(limit: number): Promise<StoredEvent[]> {
		const r = await this.pool.query<{ event_key: string; payload: string; received_at: number }>(SQL.unprocessed, [limit]);
		return r.rows.map((e) => ({ key: e.event_key, event: JSON.parse(e.payload) as CallbackEvent, receivedAt: e.received_at }));
	}

	async completeEvents(events: CompletedEvent[], at: number): Promise<void> {
		if (events.length === 0) return;
		await transaction(this.pool, async (db) => {
			const forwards = events.flatMap(({ key, forwards }) => forwards.map((f) => ({ key, f })));
			if (forwards.length > 0) {
				await db.query(
					`INSERT INTO forwards (event_key, action_key, kind, payload, state, next_at, created_at, updated_at)
					 SELECT k, a, t, p, 'pending', $5, $5, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(k, a, t, p)
					 ON CONFLICT (event_key, action_key) DO NOTHING`,
					[forwards.map((x) => x.key), forwards.map((x) => x.f.actionKey), forwards.map((x) => x.f.payload.action.type), forwards.map((x) => JSON.stringify(x.f.payload)), at],
				);
			}
			await db.query('UPDATE callback_events SET processed_at = $1 WHERE event_key = ANY($2::text[])', [at, events.map((e) => e.key)]);
		});
	}

	async queueForwards(forwards: KeyedForward[], at: number): Promise<void> {
		if (forwards.length > 0) await transaction(this.pool, (db) => this.queue(db, forwards, at));
	}

	private async queue(db: PoolClient, forwards: KeyedForward[], at: number): Promise<void> {
		for (const f of forwards) await db.query(SQL.queueForward, [f.eventKey, f.actionKey, f.payload.action.type, JSON.stringify(f.payload), at]);
	}

	async waitingEvents(): Promise<number> {
		return (await this.pool.query<{ n: number }>(SQL.waiting)).rows[0].n;
	}

	async claimDue(now: number, limit: number): Promise<ForwardJob[]> {
		// SKIP LOCKED: workers claiming at once each take other forwards, none waits on another.
		const r = await this.pool.query<ForwardRow>(
			`UPDATE forwards SET state = 'sending', attempts = attempts + 1, updated_at = $1, worker = $2
			 WHERE id IN (SELECT id FROM forwards WHERE state = 'pending' AND next_at <= $3 ORDER BY next_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
			 RETURNING *`,
			[Date.now(), WORKER_ID, now, limit],
		);
		return r.rows.map(forwardJob).sort((a, b) => a.nextAt - b.nextAt || a.id - b.id);
	}

	async nextDueAt(): Promise<number | undefined> {
		return (await this.pool.query<{ at: number | null }>(SQL.nextDue)).rows[0].at ?? undefined;
	}

	async markSent(id: number, at: number): Promise<void> {
		await this.pool.query(SQL.sent, [at, id]);
	}

	async retryLater(id: number, nextAt: number, error: string, at: number): Promise<void> {
		await this.pool.query(SQL.retry, [nextAt, error, at, id]);
	}

	async markFailed(id: number, error: string, at: number): Promise<void> {
		await this.settle(id, 'failed', error, at);
	}

	async markUncertain(id: number, error: string, at: number): Promise<void> {
		await this.settle(id, 'uncertain', error, at);
	}

	private async settle(id: number, state: ForwardState, error: string, at: number): Promise<void> {
		await this.pool.query(SQL.settle, [state, error, at, id]);
	}

	/** Those of workers whose lease is gone (see PgCluster), never those another live worker is attempting. */
	async interruptedForwards(): Promise<ForwardJob[]> {
		return (
			await this.pool.query<ForwardRow>(`SELECT * FROM forwards f WHERE state = 'sending' AND (worker IS NULL OR NOT EXISTS (SELECT 1 FROM workers w WHERE w.id = f.worker)) ORDER BY id`)
		).rows.map(forwardJob);
	}

	async requeue(id: number, at: number): Promise<void> {
		// Only while its worker is still gone: two workers may recover it at once, and the one
		// that lost must not put back an attempt the winner has started since.
		await this.pool.query(
			`UPDATE forwards f SET state = 'pending', next_at = $1, updated_at = $1, worker = NULL
			 WHERE id = $2 AND state = 'sending' AND (worker IS NULL OR NOT EXISTS (SELECT 1 FROM workers w WHERE w.id = f.worker))`,
			[at, id],
		);
	}

	async forwardCounts(): Promise<Record<ForwardState, number>> {
		const out = Object.fromEntries(FORWARD_STATES.map((s) => [s, 0])) as Record<ForwardState, number>;
		for (const r of (await this.pool.query<{ state: ForwardState; n: number }>(SQL.counts)).rows) out[r.state] = r.n;
		return out;
	}

	async forwards(): Promise<ForwardJob[]> {
		return (await this.pool.query<ForwardRow>(SQL.all)).rows.map(forwardJob);
	}

	async startRun(run: CampaignRun, events: KeyedForward[] = []): Promise<void> {
		if (events.length === 0) {
			await this.pool.query(SQL.startRun, [run.run, run.campaign, run.startedAt]);
			return;
		}
		// Several workers join one run: the one whose insert makes it queues its events.
		await transaction(this.pool, async (db) => {
			if ((await db.query(SQL.startRun, [run.run, run.campaign, run.startedAt])).rowCount === 1) await this.queue(db, events, run.startedAt);
		});
	}

	async finishRun(run: string, outcome: string, at: number, events: KeyedForward[] = []): Promise<void> {
		await transaction(this.pool, async (db) => {
			if ((await db.query(SQL.finishOpenRun, [at, outcome, run])).rowCount === 1) await this.queue(db, events, at);
			else await db.query(SQL.finishRun, [at, outcome, run]);
		});
	}

	async unfinishedRuns(): Promise<CampaignRun[]> {
		const r = await this.pool.query<{ run: string; campaign: string; started_at: number }>(SQL.unfinishedRuns);
		return r.rows.map((x) => ({ run: x.run, campaign: x.campaign, startedAt: x.started_at }));
	}

	async runsSince(campaign: string, since: number): Promise<{ runs: string[]; firstStartedAt: number | undefined }> {
		const runs = (await this.pool.query<{ run: string }>(SQL.runsSince, [campaign, since])).rows.map((r) => r.run);
		const first = (await this.pool.query<{ at: number | null }>(SQL.firstRun, [campaign])).rows[0].at;
		return { runs, firstStartedAt: first ?? undefined };
	}

	async finishedRunsBefore(before: number): Promise<string[]> {
		return (await this.pool.query<{ run: string }>(SQL.finishedRunsBefore, [before])).rows.map((r) => r.run);
	}

	async prune(before: number): Promise<{ events: number; forwards: number; runs: number }> {
		return transaction(this.pool, async (db) => ({
			events: (await db.query(SQL.pruneEvents, [before])).rowCount ?? 0,
			forwards: (await db.query(SQL.pruneForwards, [before])).rowCount ?? 0,
			runs: (await db.query(SQL.pruneRuns, [before])).rowCount ?? 0,
		}));
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}
}
