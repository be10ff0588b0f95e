import cron, { type ScheduledTask } from 'node-cron';
import type { CampaignConfig } from '../../config/workerConfigSchema';
import { resolveTimeZone } from '../../schedule/timeZone';
import type { Logger } from '../jsonLogger';
import { runName } from '../replies/runName';
import type { CampaignRunner } from './campaignRunner';

/**
 * Starts each campaign on its cron, in its time zone. One run per campaign at a time: a
 * tick that finds the last run still going is skipped and logged, not queued, since the
 * next tick comes anyway and two runs of one list would race for the same people.
 */
export class CampaignScheduler {
	private readonly tasks: ScheduledTask[] = [];
	private readonly running = new Map<string, Promise<unknown>>();
	private readonly controller = new AbortController();

	constructor(
		private readonly campaigns: readonly CampaignConfig[],
		private readonly runner: CampaignRunner,
		private readonly log: Logger,
	) {}

	start(): void {
		for (const campaign of this.campaigns) {
			const timezone = campaign.timeZone ? resolveTimeZone(campaign.timeZone) : undefined;
			const task = cron.schedule(campaign.cron, (context) => this.tick(campaign, context.date ?? new Date()), {
				name: `campaign ${campaign.name}`,
				timezone,
				logger: { info: () => {}, debug: () => {}, warn: (m) => this.log.warn(m), error: (m) => this.log.error(String(m)) },
			});
			this.tasks.push(task);
			this.log.info('campaign scheduled', { campaign: campaign.name, cron: campaign.cron, timeZone: timezone ?? 'local', next: task.getNextRun()?.toISOString() });
		}
	}

	/** Starts a run now, unless the campaign's last one is still going. */
	tick(campaign: CampaignConfig, at: Date): boolean {
		if (this.controller.signal.aborted) return false;
		if (this.running.has(campaign.name)) {
			this.log.warn('campaign tick skipped: the previous run is still going', { campaign: campaign.name, tick: at.toISOString() });
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
		for (const task of this.tasks) await task.destroy();
		this.controller.abort();
		await Promise.allSettled([...this.running.values()]);
	}

	private launch(campaign: CampaignConfig, run: string): void {
		const job = this.runner
			.run(campaign, run, this.controller.signal)
			.catch((error: Error) => this.log.error('campaign run crashed', { campaign: campaign.name, run, error }))
			.finally(() => this.running.delete(campaign.name));
		this.running.set(campaign.name, job);
	}
}
