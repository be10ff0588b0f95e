import type Database from 'better-sqlite3';
import { openDatabase } from './openDatabase';
import type { CallbackEvent } from '../../../../api';
import { DAEMON_SCHEMA } from './daemonSchema';
import { FORWARD_STATES, type CampaignRun, type CompletedEvent, type DaemonStore, type ForwardJob, type ForwardState, type StoredEvent } from '../daemonStore';
import { forwardJob, type ForwardRow } from '../forwardRow';
import { GroupCommit } from './groupCommit';
import { WalSync } from './walSync';
import { DAEMON_SQL, sqliteParams, type DaemonStatement } from '../daemonSql';

/**
 * The daemon's tables in SQLite, WAL. Commits are NORMAL (a crash of the process loses
 * nothing; a power cut may lose the last few), except two that are synced before they
 * return, several at once under load (GroupCommit): a callback's event, since the 200
 * tells the provider it need not send it again, and an SMS forward's `sending` mark,
 * without which a restart could send it twice. Anything else lost to a power cut is
 * redone: events are processed again, idempotently, and e-mails and posts are sent
 * again under the same Message-ID or Idempotency-Key.
 */
export class SqliteDaemonStore implements DaemonStore {
	private readonly db: Database.Database;
	private readonly s: ReturnType<SqliteDaemonStore['prepare']>;
	private readonly synced: GroupCommit;
	private readonly batched: GroupCommit;
	private readonly wal: WalSync;

	private readonly ownsConnection: boolean;

	/** `shared`: the ledger's connection to the same file, which stays the ledger's to close. */
	constructor(path: string, shared?: Database.Database) {
		if (shared) shared.exec(DAEMON_SCHEMA);
		this.db = shared ?? openDatabase(path, DAEMON_SCHEMA, "the worker's database");
		this.ownsConnection = !shared;
		this.s = this.prepare();
		this.wal = new WalSync(path);
		this.synced = new GroupCommit(this.db, this.wal);
		this.batched = new GroupCommit(this.db);
	}

	private prepare() {
		const db = this.db;
		return {
			...(Object.fromEntries(Object.entries(DAEMON_SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<DaemonStatement, Database.Statement>),
			// SQLite's own: one row at a time inside its transactions (no arrays to unnest).
			processed: db.prepare(`UPDATE callback_events SET processed_at = ? WHERE event_key = ?`),
			insertForward: db.prepare(
				`INSERT OR IGNORE INTO forwards (event_key, action_key, kind, payload, state, next_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
			),
			due: db.prepare(`SELECT * FROM forwards WHERE state = 'pending' AND next_at <= ? ORDER BY next_at, id LIMIT ?`),
			sending: db.prepare(`UPDATE forwards SET state = 'sending', attempts = attempts + 1, updated_at = ? WHERE id = ? AND state = 'pending'`),
			interrupted: db.prepare(`SELECT * FROM forwards WHERE state = 'sending' ORDER BY id`),
			requeue: db.prepare(`UPDATE forwards SET state = 'pending', next_at = ?, updated_at = ? WHERE id = ? AND state = 'sending'`),
		};
	}

	/** A shared statement (daemonSql.ts) run with positional arguments. */
	private run(name: DaemonStatement, ...args: unknown[]): Database.RunResult {
		return this.s[name].run(sqliteParams(args));
	}

	private all<T>(name: DaemonStatement, ...args: unknown[]): T[] {
		return (args.length > 0 ? this.s[name].all(sqliteParams(args)) : this.s[name].all()) as T[];
	}

	async recordEvent(key: string, event: CallbackEvent, receivedAt: number): Promise<boolean> {
		return this.synced.run(() => this.run('insertEvent', key, event.kind, JSON.stringify(event), receivedAt).changes === 1);
	}

	async unprocessedEvents(limit: number): Promise<StoredEvent[]> {
		const rows = this.all<{ event_key: string; payload: string; received_at: number }>('unprocessed', limit);
		return rows.map((r) => ({ key: r.event_key, event: JSON.parse(r.payload) as CallbackEvent, receivedAt: r.received_at }));
	}

	async completeEvents(events: CompletedEvent[], at: number): Promise<void> {
		this.db.transaction(() => {
			for (const { key, forwards } of events) {
				for (const f of forwards) this.s.insertForward.run(key, f.actionKey, f.payload.action.type, JSON.stringify(f.payload), at, at, at);
				this.s.processed.run(at, key);
			}
		})();
	}

	async waitingEvents(): Promise<number> {
		return this.all<{ n: number }>('waiting')[0].n;
	}

	async claimDue(now: number, limit: number): Promise<ForwardJob[]> {
		const at = Date.now();
		const jobs = this.db.transaction(() => {
			const due = (this.s.due.all(now, limit) as ForwardRow[]).map(forwardJob);
			for (const job of due) this.s.sending.run(at, job.id);
			return due.map((job) => ({ ...job, state: 'sending' as const, attempts: job.attempts + 1 }));
		})();
		// The claim is committed; a sync of the WAL puts it on disk before an SMS goes.
		if (jobs.some((job) => job.payload.action.type === 'forwardSms')) await this.wal.sync();
		return jobs;
	}

	async nextDueAt(): Promise<number | undefined> {
		return this.all<{ at: number | null }>('nextDue')[0].at ?? undefined;
	}

	async markSent(id: number, at: number): Promise<void> {
		await this.batched.run(() => this.run('sent', at, id));
	}

	async retryLater(id: number, nextAt: number, error: string, at: number): Promise<void> {
		await this.batched.run(() => this.run('retry', nextAt, error, at, id));
	}

	async markFailed(id: number, error: string, at: number): Promise<void> {
		await this.batched.run(() => this.run('settle', 'failed', error, at, id));
	}

	async markUncertain(id: number, error: string, at: number): Promise<void> {
		await this.batched.run(() => this.run('settle', 'uncertain', error, at, id));
	}

	async interruptedForwards(): Promise<ForwardJob[]> {
		return (this.s.interrupted.all() as ForwardRow[]).map(forwardJob);
	}

	async requeue(id: number, at: number): Promise<void> {
		this.s.requeue.run(at, at, id);
	}

	async forwardCounts(): Promise<Record<ForwardState, number>> {
		const out = Object.fromEntries(FORWARD_STATES.map((s) => [s, 0])) as Record<ForwardState, number>;
		for (const r of this.all<{ state: ForwardState; n: number }>('counts')) out[r.state] = r.n;
		return out;
	}

	async forwards(): Promise<ForwardJob[]> {
		return this.all<ForwardRow>('all').map(forwardJob);
	}

	async startRun(run: CampaignRun): Promise<void> {
		this.run('startRun', run.run, run.campaign, run.startedAt);
	}

	async finishRun(run: string, outcome: string, at: number): Promise<void> {
		this.run('finishRun', at, outcome, run);
	}

	async unfinishedRuns(): Promise<CampaignRun[]> {
		const rows = this.all<{ run: string; campaign: string; started_at: number }>('unfinishedRuns');
		return rows.map((r) => ({ run: r.run, campaign: r.campaign, startedAt: r.started_at }));
	}

	async runsSince(campaign: string, since: number): Promise<{ runs: string[]; firstStartedAt: number | undefined }> {
		const runs = this.all<{ run: string }>('runsSince', campaign, since).map((r) => r.run);
		return { runs, firstStartedAt: this.all<{ at: number | null }>('firstRun', campaign)[0].at ?? undefined };
	}

	async finishedRunsBefore(before: number): Promise<string[]> {
		return this.all<{ run: string }>('finishedRunsBefore', before).map((r) => r.run);
	}

	async prune(before: number): Promise<{ events: number; forwards: number; runs: number }> {
		return this.db.transaction(() => ({
			events: this.run('pruneEvents', before).changes,
			forwards: this.run('pruneForwards', before).changes,
			runs: this.run('pruneRuns', before).changes,
		}))();
	}

	async close(): Promise<void> {
		this.wal.close();
		if (this.ownsConnection && this.db.open) this.db.close();
	}
}
