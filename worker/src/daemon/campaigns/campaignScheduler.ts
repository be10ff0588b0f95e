import cron, { type ScheduledTask } from 'node-cron';
import type { CampaignConfig } from '../../config/workerConfigSchema';
import { resolveTimeZone } from '../../schedule/timeZone';
import { backoffDelay } from '../../pacing/backoff';
import type { Logger } from '../jsonLogger';
import { runName, tickOfRun } from '../callbacks/4-replies/runName';
import type { DaemonStore } from '../../storage/daemonStore';
import type { ConfigCampaignRuns } from './configCampaignRuns';
import { durationMs } from '../../../../api';
import { ticksBetween } from './missedTicks';

/** How often missed ticks are looked for (a tick whose run could not start is one). */
const CATCH_UP_EVERY_MS = 10_000;
/** Past ticks a `catchUp: none` campaign reports as missed, and the run records looked at. */
const LOOK_BACK_MS = 86_400_000;
/** A run that stopped on a store fault is resumed after this, doubling up to the next (a few seconds: a missed tick runs soon after the store is back). */
const RESUME_MS = 2_000;
const RESUME_MAX_MS = 8_000;
/** Skipped ticks logged one by one; more are summed up in one line. */
const SKIPS_LOGGED = 10;

/**
 * Starts each campaign on its cron, in its time zone. One run per campaign at a time: a
 * tick that finds the last run still going is skipped and logged, not queued, since the
 * next tick comes anyway and two runs of one list would race for the same people.
 *
 * A tick missed while the worker or its database was down is caught up (see catchUp):
 * every few seconds the ticks of the campaign's grace period are compared with the runs
 * the store holds. A tick counts as missed when this worker was running at it, or the
 * campaign had run before it: a campaign just added to the config does not run at once
 * for a tick from before it was there.
 */
export class CampaignScheduler {
	private readonly tasks = new Map<string, ScheduledTask>();
	private readonly running = new Map<string, Promise<unknown>>();
	private readonly controller = new AbortController();
	/** Runs this process started and saw end, or ticks it skipped or reported: not missed. */
	private readonly handled = new Set<string>();
	private readonly startedAt = Date.now();
	private readonly judgedThrough = new Map<string, number>();
	private catchUpTimer: NodeJS.Timeout | undefined;
	private lookingForMissed: Promise<void> | undefined;
	private catchUpFailing = false;
	private resumeFailures = new Map<string, number>();

	constructor(
		private readonly campaigns: readonly CampaignConfig[],
		private readonly runner: ConfigCampaignRuns,
		private readonly log: Logger,
		private readonly store?: Pick<DaemonStore, 'runsSince'>,
	) {}

	start(): void {
		for (const campaign of this.campaigns) {
			const timezone = campaign.timeZone ? resolveTimeZone(campaign.timeZone) : undefined;
			const task = cron.schedule(
				campaign.cron,
				(context) => this.tick(campaign, context.date ?? new Date()),
				{
					name: `campaign ${campaign.name}`,
					timezone,
					logger: {
						info: () => {},
						debug: () => {},
						warn: (m) => this.log.warn(m),
						error: (m) => this.log.error(String(m)),
					},
				},
			);
			this.tasks.set(campaign.name, task);
			this.log.info('campaign scheduled', {
				campaign: campaign.name,
				cron: campaign.cron,
				timeZone: timezone ?? 'local',
				next: task.getNextRun()?.toISOString(),
			});
		}
		if (this.store && this.campaigns.length > 0) {
			this.lookForMissed();
			this.catchUpTimer = setInterval(() => this.lookForMissed(), CATCH_UP_EVERY_MS);
			this.catchUpTimer.unref();
		}
	}

	/** Each cron campaign's next tick (ISO 8601), for the dashboard; none before start. */
	nextTicks(): { campaign: string; next?: string }[] {
		return [...this.tasks].map(([campaign, task]) => ({
			campaign,
			next: task.getNextRun()?.toISOString(),
		}));
	}

	/** Catches up, or reports, the ticks missed since the last look. Never throws: a store that fails is asked again later. */
	lookForMissed(): Promise<void> {
		this.lookingForMissed ??= (async () => {
			try {
				for (const campaign of this.campaigns) await this.catchUp(campaign);
				if (this.catchUpFailing) this.log.info('looking for missed ticks again: the store answers');
				this.catchUpFailing = false;
			} catch (error) {
				if (!this.catchUpFailing)
					this.log.error('cannot look for missed ticks: the store does not answer; trying again', {
						error: error as Error,
					});
				this.catchUpFailing = true;
			}
		})().finally(() => (this.lookingForMissed = undefined));
		return this.lookingForMissed;
	}

	private async catchUp(campaign: CampaignConfig): Promise<void> {
		const task = this.tasks.get(campaign.name);
		if (!task || !this.store || this.controller.signal.aborted || this.running.has(campaign.name))
			return;
		// `none` is no duration: nothing is caught up.
		const grace = durationMs(campaign.catchUp ?? '24h');
		const now = Date.now();
		const since = now - (grace ?? LOOK_BACK_MS);
		const known = await this.store.runsSince(campaign.name, since);
		const runs = new Set(known.runs);
		// Only ticks after the latest run and after the worker or the campaign first ran can
		// count: walking the rest of a seconds cron's day took the loop for seconds each look.
		const latestRun = known.runs.reduce(
			(latest, run) => Math.max(latest, tickOfRun(run) ?? since),
			since,
		);
		// With catchUp none nothing runs late, so a tick once judged (and logged) is not walked again.
		const judged = grace === undefined ? (this.judgedThrough.get(campaign.name) ?? since) : since;
		const from = Math.max(
			latestRun,
			judged,
			Math.min(this.startedAt - 1, known.firstStartedAt ?? Infinity),
		);
		// A tick is this second's at the earliest: the cron fires it itself.
		const ticks = ticksBetween(task, from, now - 1000);
		if (grace === undefined && ticks.length > 0)
			this.judgedThrough.set(campaign.name, ticks[ticks.length - 1].getTime());
		if (ticks.length === 0) return;
		// Only ticks after the last one that ran (or was skipped on purpose): a later run supersedes them.
		let done = -1;
		ticks.forEach((t, i) => {
			const run = runName(campaign.name, t);
			if (runs.has(run) || this.handled.has(run)) done = i;
		});
		const missed = ticks
			.slice(done + 1)
			.filter(
				(t) =>
					t.getTime() >= this.startedAt ||
					(known.firstStartedAt !== undefined && known.firstStartedAt < t.getTime()),
			);
		if (missed.length === 0 || this.running.has(campaign.name) || this.controller.signal.aborted)
			return;
		const latest = missed[missed.length - 1];
		const skipped = grace === undefined ? missed : missed.slice(0, -1);
		const why =
			grace === undefined ? 'catchUp is none' : 'only the latest missed tick is caught up';
		// One line a tick, but not thousands for a cron of every minute that missed a day.
		skipped.forEach((tick, i) => {
			this.handled.add(runName(campaign.name, tick));
			if (i < SKIPS_LOGGED)
				this.log.warn('campaign tick missed and skipped', {
					campaign: campaign.name,
					tick: tick.toISOString(),
					why,
				});
		});
		if (skipped.length > SKIPS_LOGGED) {
			this.log.warn('campaign ticks missed and skipped', {
				campaign: campaign.name,
				more: skipped.length - SKIPS_LOGGED,
				from: skipped[SKIPS_LOGGED].toISOString(),
				to: skipped[skipped.length - 1].toISOString(),
				why,
			});
		}
		if (grace === undefined) return;
		this.log.warn('campaign tick caught up', {
			campaign: campaign.name,
			tick: latest.toISOString(),
			lateMs: now - latest.getTime(),
			catchUp: campaign.catchUp ?? '24h',
		});
		this.launch(campaign, runName(campaign.name, latest));
	}

	/** Starts a run now, unless the campaign's last one is still going. */
	tick(campaign: CampaignConfig, at: Date): boolean {
		if (this.controller.signal.aborted) return false;
		if (this.running.has(campaign.name)) {
			this.handled.add(runName(campaign.name, at));
			this.log.warn('campaign tick skipped: the previous run is still going', {
				campaign: campaign.name,
				tick: at.toISOString(),
			});
			return false;
		}
		this.launch(campaign, runName(campaign.name, at));
		return true;
	}

	/** Takes up a run a shutdown cut short, under its own name, so it resumes where it stopped. */
	resume(campaign: CampaignConfig, run: string): void {
		this.log.info('campaign run resumed', { campaign: campaign.name, run });
		this.launch(campaign, run);
	}

	isRunning(campaign: string): boolean {
		return this.running.has(campaign);
	}

	get runningCount(): number {
		return this.running.size;
	}

	/** No new tick; runs under way finish the batches in flight and stop, to resume later. */
	async stop(): Promise<void> {
		if (this.catchUpTimer) clearInterval(this.catchUpTimer);
		for (const task of this.tasks.values()) await task.destroy();
		this.controller.abort();
		await this.lookingForMissed;
		await Promise.allSettled([...this.running.values()]);
	}

	/** Resumes a run the store stopped; if another run of the campaign began meanwhile, after it ends (never dropped). */
	private resumeWhenFree(campaign: CampaignConfig, run: string): void {
		if (this.controller.signal.aborted) return;
		const going = this.running.get(campaign.name);
		if (going) {
			void going.then(() => this.resumeWhenFree(campaign, run));
			return;
		}
		this.resume(campaign, run);
	}

	private launch(campaign: CampaignConfig, run: string): void {
		const job = this.runner
			.run(campaign, run, this.controller.signal)
			.then(
				() => {
					this.handled.add(run);
					this.resumeFailures.delete(run);
				},
				(error: Error) => {
					// The runner settles everything but a store that fails under it: the run is
					// resumed once the store answers (or caught up, if it never began).
					const failures = this.resumeFailures.get(run) ?? 0;
					this.resumeFailures.set(run, failures + 1);
					const delay = backoffDelay(failures + 1, { baseMs: RESUME_MS, maxMs: RESUME_MAX_MS });
					this.log.error(
						'campaign run stopped: the store failed; it is resumed when the store answers',
						{ campaign: campaign.name, run, error, retryInMs: delay },
					);
					setTimeout(() => this.resumeWhenFree(campaign, run), delay).unref();
				},
			)
			.finally(() => this.running.delete(campaign.name));
		this.running.set(campaign.name, job);
	}
}
