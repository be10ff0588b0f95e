import { withoutServerPaths } from './serverPaths';
import type { CampaignSummary } from '../../campaign/campaignSummary';
import { FatalError, RunHeldError, SettingError, STALE_OWNER_MS, UsageError } from '../../errors';
import type { Ledger } from '../../storage/ledger';
import type { ApiCampaignRecord, ApiCampaignStore } from '../../storage/apiCampaignStore';
import { ownerIsAlive } from '../../storage/ownerIsAlive';
import { isStoreFault } from '../../storage/storeFault';
import { runPace, type CampaignRunner, type RunPlan } from '../campaigns/campaignRunner';
import type { JsonLogger } from '../jsonLogger';
import { eventRun, type CampaignKicker } from './campaignControl';
import { API_SETTING, apiCampaignSpec } from './apiCampaignSpec';
import { unionColumns } from './recipientColumns';
import { recipientRows } from './recipientRows';

/** How often the database is asked for campaigns started (here, or through another worker on the same Postgres). */
const LOOK_EVERY_MS = 2_000;
/** A run stopped by something that may pass (the provider unreachable, its 5xx past the retries) goes again after this, doubled each time. */
const RETRY_FIRST_MS = 5_000;
const RETRY_MOST_MS = 5 * 60_000;

/**
 * Sends the started API campaigns through the worker's one CampaignRunner, as the cron
 * sends a config campaign: paced, suppressed, crash-safe, each under its own name in the
 * ledger. At the worker's start it takes up every campaign left started; then it looks
 * every two seconds, so campaigns started through another worker on the same Postgres are
 * sent by all of them together (claimed chunks), as a cron run is.
 */
export class ApiCampaignLoop implements CampaignKicker {
	private readonly running = new Map<string, Promise<void>>();
	/** Campaigns whose last run stopped on a passing fault: when each may go again, and the wait after that. */
	private readonly retry = new Map<string, { at: number; nextMs: number }>();
	private readonly abort = new AbortController();
	private timer: NodeJS.Timeout | undefined;
	private stopped = false;
	/** A reload's new copy serves the API before it takes over: it runs nothing until started. */
	private started = false;

	constructor(
		private readonly runner: CampaignRunner,
		private readonly store: ApiCampaignStore,
		private readonly dir: string,
		private readonly log: JsonLogger,
	) {}

	get runningCount(): number {
		return this.running.size;
	}

	start(): void {
		this.started = true;
		const look = async () => {
			try {
				const now = Date.now();
				for (const c of await this.store.campaignsToRun())
					if ((this.retry.get(c.name)?.at ?? 0) <= now) this.kick(c.name);
			} catch (error) {
				// The store is down: the next look tries again.
				this.log.warn('API campaigns not looked up: the store does not answer', { error });
			}
			if (!this.stopped) this.timer = setTimeout(() => void look(), LOOK_EVERY_MS);
		};
		void look();
	}

	isRunning(name: string): boolean {
		return this.running.has(name);
	}

	kick(name: string): void {
		if (!this.started || this.stopped || this.running.has(name)) return;
		const run = this.run(name)
			.catch((error: Error) => this.log.error('API campaign run failed', { campaign: name, error }))
			.finally(() => this.running.delete(name));
		this.running.set(name, run);
	}

	/** Runs stop after their batches in flight; a started campaign is taken up again at the next start. */
	async stop(): Promise<void> {
		this.stopped = true;
		if (this.timer) clearTimeout(this.timer);
		this.abort.abort();
		await Promise.allSettled([...this.running.values()]);
	}

	private async run(name: string): Promise<void> {
		const record = await this.store.campaign(name);
		if (record?.state !== 'started') return;
		const log = this.log.child({ campaign: name, api: true });
		const signal = this.abort.signal;
		const { config } = this.runner;
		const plan: RunPlan = {
			named: eventRun(record),
			spec: apiCampaignSpec(
				name,
				record.settings,
				record.source ?? 'pages',
				config.links.baseUrl,
				unionColumns(await this.store.pageColumns(name)),
			),
			pace: runPace(record.settings),
			wants: {
				receipts: record.settings.receipts !== false,
				replies: record.settings.replies !== false,
				from: record.settings.from,
			},
			// A person's pause is announced by the write that makes it; the run announces its guardrails'.
			announcePauses: 'guardrails',
			// Every worker reads the same rows from the same pages: a resume skips those imported.
			input: recipientRows(this.store, record),
		};
		await this.runner.run(plan, signal, log, {
			before: async (ledger) => {
				const stored = await ledger.campaign(name);
				// Cancelled while a run held it, and that run stopped before it could say so (the worker was killed).
				if (stored?.phase === 'cancelled') {
					await this.finishCancel(record, ledger, log);
					return { instead: undefined };
				}
				// Paused: a resume goes on. The daily spend cap's run waits for the next day, and is
				// taken up again after a restart.
				const paused = stored?.paused === true && stored.pausedBy?.by !== 'daily-spend-cap';
				return paused ? { instead: undefined } : undefined;
			},
			after: (outcome, ledger) =>
				'summary' in outcome
					? this.ended(record, outcome.summary, ledger!, log)
					: this.threw(record, outcome.error, ledger, log, signal),
		});
	}

	/** The campaign's move once its run ends: finished, cancelled, or started still to go again after a wait. */
	private async ended(
		record: ApiCampaignRecord,
		summary: CampaignSummary,
		ledger: Ledger,
		log: JsonLogger,
	): Promise<void> {
		const { name } = record;
		const now = Date.now();
		// A cancel asked while its last rows went is the end it was shown as meanwhile.
		const asked = !summary.storeFault && (await ledger.campaign(name))?.cancelledBy;
		if (summary.storeFault)
			log.warn(
				'API campaign stopped: the database failed under it; it is taken up again once it answers',
				{ reason: summary.message },
			);
		else if (summary.stop === 'cancelled' || (asked && summary.stop === 'finished'))
			await this.cancelled(record, ledger, now);
		else if (summary.stop === 'finished') {
			// Its campaign.finished is queued by the move itself: of several workers, the one that makes it.
			await this.store.end(
				name,
				['started'],
				'finished',
				now,
				undefined,
				await this.runner.finishedForwards(eventRun(record), 'finished', ledger, now),
			);
			this.runner.events?.wake();
		}
		// The engine stops a run it cannot go on with (the provider unreachable, refusing, its
		// 5xx past the retries) with rows still to send: the campaign stays started and goes again.
		else if (summary.stop === 'failed')
			await this.later(record, summary.message ?? 'the run stopped', log);
		if (summary.stop !== 'failed') this.retry.delete(name);
	}

	/** What the engine threw: a setting that cannot work fails the campaign; what may pass, it goes again. */
	private async threw(
		record: ApiCampaignRecord,
		error: unknown,
		ledger: Ledger | undefined,
		log: JsonLogger,
		signal: AbortSignal,
	): Promise<void> {
		// The store went away: the campaign stays started and the next look takes it up again.
		if (isStoreFault(error) || signal.aborted) throw error;
		// Another process holds the run (a copy of this worker that a kill left behind, until
		// its heartbeat goes stale): not a failure; the next look tries again.
		if (error instanceof RunHeldError) {
			log.info('API campaign waits: another process holds its run', { reason: error.message });
			return;
		}
		if (error instanceof SettingError || error instanceof UsageError)
			await this.fail(
				record,
				error instanceof SettingError
					? `${API_SETTING[error.setting] ?? error.setting}: ${error.detail}`
					: error.message,
				log,
				ledger,
			);
		else if (error instanceof FatalError) await this.later(record, error.message, log);
		else await this.fail(record, String((error as Error).stack ?? error), log, ledger);
	}

	/**
	 * A cancel no run holds any longer, made whole: the rows a killed run had in flight
	 * become uncertain, those still pending cancelled, and the campaign moves to cancelled in
	 * the write that queues its campaign.finished. Left to the run that holds it, if one does.
	 */
	private async finishCancel(
		record: ApiCampaignRecord,
		ledger: Ledger,
		log: JsonLogger,
	): Promise<void> {
		const stored = await ledger.campaign(record.name);
		if (stored?.owner && ownerIsAlive(stored.owner, STALE_OWNER_MS)) return;
		log.info('API campaign cancelled while its run was stopped: the cancel is finished now');
		if (stored && stored.phase !== 'finished') {
			await ledger.recoverSubmitting(record.name);
			await ledger.cancelPending(record.name);
		}
		await this.cancelled(record, ledger, Date.now());
	}

	/**
	 * Moves a cancelled campaign to its end with its campaign.finished, in one write, with the
	 * reason its cancel gave the ledger (else, cancelled).
	 */
	private async cancelled(record: ApiCampaignRecord, ledger: Ledger, now: number): Promise<void> {
		// The engine cancels the pending rows of a run it stops; one it never began (a resume found it cancelled) leaves them.
		await ledger.cancelPending(record.name);
		const current = (await this.store.campaign(record.name)) ?? record;
		const reason = (await ledger.campaign(record.name))?.cancelledBy?.reason ?? 'cancelled';
		const announcement = await this.runner.finishedForwards(
			eventRun(current),
			'cancelled',
			ledger,
			now,
			reason,
		);
		if (await this.store.end(record.name, ['started'], 'cancelled', now, reason, announcement))
			this.runner.events?.wake();
	}

	/** Leaves the campaign started, its reason shown in its status, and runs it again after a wait. */
	private async later(
		record: ApiCampaignRecord,
		fullReason: string,
		log: JsonLogger,
	): Promise<void> {
		// The log keeps the path; the status an API caller reads does not.
		const reason = withoutServerPaths(fullReason, this.dir);
		const wait = this.retry.get(record.name)?.nextMs ?? RETRY_FIRST_MS;
		this.retry.set(record.name, {
			at: Date.now() + wait,
			nextMs: Math.min(RETRY_MOST_MS, wait * 2),
		});
		log.warn('API campaign stopped; it goes again', { reason: fullReason, inSeconds: wait / 1000 });
		await this.store.setReason(
			record.name,
			Date.now(),
			`stopped, going again in ${Math.round(wait / 1000)} s: ${reason}`,
		);
	}

	private async fail(
		record: ApiCampaignRecord,
		fullReason: string,
		log: JsonLogger,
		ledger: Ledger | undefined,
	): Promise<void> {
		log.error('API campaign failed', { reason: fullReason });
		const at = Date.now();
		// Cancelled while its run held it: it ends as it was shown meanwhile.
		if (ledger && (await ledger.campaign(record.name))?.cancelledBy)
			return this.cancelled(record, ledger, at);
		const reason = withoutServerPaths(fullReason, this.dir);
		await this.store.end(
			record.name,
			['started'],
			'failed',
			at,
			reason,
			await this.runner.finishedForwards(eventRun(record), 'failed', ledger, at, reason),
		);
		this.runner.events?.wake();
		// Failed before its import (the provider refused its property, say): the ledger campaign
		// its start made holds nothing, and would be listed as waiting for a worker.
		const stored = await ledger?.campaign(record.name);
		if (ledger && stored?.phase === 'importing' && stored.importedThrough === 0)
			await ledger.deleteCampaign(record.name);
	}
}
