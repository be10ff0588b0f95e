import {
	FORWARD_STATES,
	type CampaignRun,
	type CompletedEvent,
	type DaemonStore,
	type ForwardJob,
	type ForwardState,
	type KeyedForward,
	type StoredEvent,
	type StoredPayload,
	type IntakeEvent,
} from './daemonStore';
import { daemonSql, queuedIfMoved, queueForwardsWrite } from './daemonSql';
import { all, type SqlDb } from './work';
import { WORKER_ID } from './workerId';

interface ForwardRow {
	id: number;
	event_key: string;
	action_key: string;
	payload: string;
	state: ForwardState;
	attempts: number;
	next_at: number;
	last_error: string | null;
	created_at: number;
	updated_at: number;
}

const forwardJob = (r: ForwardRow): ForwardJob => ({
	id: r.id,
	eventKey: r.event_key,
	actionKey: r.action_key,
	payload: JSON.parse(r.payload) as StoredPayload,
	state: r.state,
	attempts: r.attempts,
	nextAt: r.next_at,
	lastError: r.last_error ?? undefined,
	createdAt: Number(r.created_at),
	updatedAt: Number(r.updated_at),
});

/**
 * The daemon's tables, on either backend. Durable before it answers: a callback's event,
 * since the 200 tells the provider it need not send it again, and an SMS forward's
 * `sending` mark, without which a restart could send it twice. Anything else lost to a
 * power cut is redone: events are processed again, idempotently, and e-mails and posts are
 * sent again under the same Message-ID or Idempotency-Key. Where several workers share
 * the tables (Postgres), each write that decides who does something is one conditional
 * statement, so two workers racing for one callback or forward leave one of them holding it.
 */
export class SqlDaemonStore implements DaemonStore {
	private readonly sql: ReturnType<typeof daemonSql>;

	constructor(private readonly db: SqlDb) {
		this.sql = daemonSql(db.dialect);
	}

	async recordEvent(key: string, event: IntakeEvent, receivedAt: number): Promise<boolean> {
		const [changed] = await this.db.write(
			[[this.sql.insertEvent, key, event.kind, JSON.stringify(event), receivedAt]],
			'synced',
		);
		return changed === 1;
	}

	async unprocessedEvents(limit: number): Promise<StoredEvent[]> {
		const rows = await this.db.run(
			all<{ event_key: string; payload: string; received_at: number }>(this.sql.unprocessed, limit),
		);
		return rows.map((r) => ({
			key: r.event_key,
			event: JSON.parse(r.payload) as IntakeEvent,
			receivedAt: r.received_at,
		}));
	}

	async completeEvents(events: CompletedEvent[], at: number): Promise<void> {
		if (events.length === 0) return;
		const forwards = events.flatMap(({ key, forwards }) =>
			forwards.map((f) => ({ ...f, eventKey: key })),
		);
		await this.db.write([
			queueForwardsWrite(this.db.dialect, forwards, at),
			[this.sql.processed, JSON.stringify(events.map((e) => [e.key])), at],
		]);
	}

	async queueForwards(forwards: KeyedForward[], at: number): Promise<void> {
		if (forwards.length > 0)
			await this.db.write([queueForwardsWrite(this.db.dialect, forwards, at)]);
	}

	async waitingEvents(): Promise<number> {
		return (await this.db.run(all<{ n: number }>(this.sql.waiting)))[0].n;
	}

	processingAlone<T>(pass: () => Promise<T>): Promise<T | 'busy'> {
		return this.db.alone('cloudtel:callback-processing', pass);
	}

	async claimDue(now: number, limit: number): Promise<ForwardJob[]> {
		const rows = await this.db.run(
			all<ForwardRow>(this.sql.claim, Date.now(), WORKER_ID, now, limit),
		);
		const jobs = rows.map(forwardJob).sort((a, b) => a.nextAt - b.nextAt || a.id - b.id);
		// The claim is committed; on disk before an SMS goes.
		if (jobs.some((job) => job.payload.action.type === 'forwardSms')) await this.db.sync();
		return jobs;
	}

	async nextDueAt(): Promise<number | undefined> {
		return (await this.db.run(all<{ at: number | null }>(this.sql.nextDue)))[0].at ?? undefined;
	}

	async markSent(id: number, at: number): Promise<void> {
		await this.db.write([[this.sql.sent, at, id]], 'grouped');
	}

	async retryLater(id: number, nextAt: number, error: string, at: number): Promise<void> {
		await this.db.write([[this.sql.retry, nextAt, error, at, id]], 'grouped');
	}

	async markFailed(id: number, error: string, at: number): Promise<void> {
		await this.db.write([[this.sql.settle, 'failed', error, at, id]], 'grouped');
	}

	async markUncertain(id: number, error: string, at: number): Promise<void> {
		await this.db.write([[this.sql.settle, 'uncertain', error, at, id]], 'grouped');
	}

	async markDead(id: number, error: string, at: number): Promise<void> {
		await this.db.write([[this.sql.settle, 'dead', error, at, id]], 'grouped');
	}

	async replayForwards(ids: readonly number[], at: number): Promise<number> {
		if (ids.length === 0) return 0;
		const changed = await this.db.write(ids.map((id) => [this.sql.replay, at, id]));
		return changed.reduce((n, c) => n + c, 0);
	}

	async interruptedForwards(): Promise<ForwardJob[]> {
		return (await this.db.run(all<ForwardRow>(this.sql.interrupted))).map(forwardJob);
	}

	async requeue(id: number, at: number): Promise<void> {
		await this.db.write([[this.sql.requeue, at, id]]);
	}

	async putBack(id: number, nextAt: number, at: number): Promise<void> {
		await this.db.write([[this.sql.putBack, nextAt, at, id]], 'grouped');
	}

	async forwardCounts(): Promise<Record<ForwardState, number>> {
		const out = Object.fromEntries(FORWARD_STATES.map((s) => [s, 0])) as Record<
			ForwardState,
			number
		>;
		for (const r of await this.db.run(all<{ state: ForwardState; n: number }>(this.sql.counts)))
			out[r.state] = r.n;
		return out;
	}

	async retryingSince(before: number): Promise<ForwardJob[]> {
		return (await this.db.run(all<ForwardRow>(this.sql.retrying, before))).map(forwardJob);
	}

	async forwards(): Promise<ForwardJob[]> {
		return (await this.db.run(all<ForwardRow>(this.sql.all))).map(forwardJob);
	}

	async startRun(run: CampaignRun, events: KeyedForward[] = []): Promise<void> {
		// Several workers join one run: the one whose insert makes it queues its events.
		await this.db.write([
			[this.sql.startRun, run.run, run.campaign, run.startedAt],
			queuedIfMoved(this.db.dialect, events, run.startedAt),
		]);
	}

	async finishRun(
		run: string,
		outcome: string,
		at: number,
		events: KeyedForward[] = [],
	): Promise<void> {
		await this.db.write([
			[this.sql.finishOpenRun, at, outcome, run],
			([closed]) =>
				closed !== 1
					? [this.sql.finishRun, at, outcome, run]
					: events.length > 0
						? queueForwardsWrite(this.db.dialect, events, at)
						: undefined,
		]);
	}

	async unfinishedRuns(): Promise<CampaignRun[]> {
		const rows = await this.db.run(
			all<{ run: string; campaign: string; started_at: number }>(this.sql.unfinishedRuns),
		);
		return rows.map((r) => ({ run: r.run, campaign: r.campaign, startedAt: r.started_at }));
	}

	async runsSince(
		campaign: string,
		since: number,
	): Promise<{ runs: string[]; firstStartedAt: number | undefined }> {
		const runs = (await this.db.run(all<{ run: string }>(this.sql.runsSince, campaign, since))).map(
			(r) => r.run,
		);
		return {
			runs,
			firstStartedAt:
				(await this.db.run(all<{ at: number | null }>(this.sql.firstRun, campaign)))[0].at ??
				undefined,
		};
	}

	async finishedRunsBefore(before: number): Promise<string[]> {
		return (await this.db.run(all<{ run: string }>(this.sql.finishedRunsBefore, before))).map(
			(r) => r.run,
		);
	}

	async prune(before: number): Promise<{ events: number; forwards: number; runs: number }> {
		const [events, forwards, runs] = await this.db.write([
			[this.sql.pruneEvents, before],
			[this.sql.pruneForwards, before],
			[this.sql.pruneRuns, before],
		]);
		return { events, forwards, runs };
	}

	close(): Promise<void> {
		return this.db.close();
	}
}
