import { FatalError } from '../../errors';
import type { CampaignConfig } from '../../config/workerConfigSchema';
import type { Ledger } from '../../storage/ledger';
import type { RunStore } from '../../storage/daemonStore';
import type { EventRun } from '../callbacks/5-events/campaignEvents';
import type { StopReason } from '../../campaign/campaignSummary';
import type { JsonLogger } from '../jsonLogger';
import { configuredSpec } from './configuredSpec';
import { checkCampaignCsv, configProblem } from './csvCheck';
import { runPace, type CampaignRunner, type RunOutcome, type RunPlan } from './campaignRunner';
import { isStoreFault, StoreFault } from '../../storage/storeFault';

/** Whether the run may be taken up again at the next start: only one cut short by a stop. */
export type RunEnd = 'finished' | 'interrupted' | 'failed' | 'skipped';

/**
 * The runs of the config's campaigns: each cron tick (or `campaign run --config`) is one
 * run under a name of its own (`<campaign>-<tick>`), recorded before it starts and closed
 * when it ends, except when a shutdown cuts it short: the next start resumes it where it
 * stopped. The worker's one CampaignRunner sends it.
 */
export class ConfigCampaignRuns {
	constructor(
		private readonly runner: CampaignRunner,
		private readonly store: RunStore,
		private readonly log: JsonLogger,
	) {}

	async run(campaign: CampaignConfig, run: string, signal: AbortSignal): Promise<RunEnd> {
		const { config, events } = this.runner;
		const log = this.log.child({ campaign: campaign.name, run });
		const index = config.campaigns.indexOf(campaign);
		// The CSV may have changed since the start: a run that would fail is not begun.
		const problems = await checkCampaignCsv(campaign, index);
		if (problems.length > 0) {
			for (const problem of problems)
				log.error('campaign not run: its config does not fit its CSV', { problem });
			return 'failed';
		}
		// One run of a campaign at a time, whoever began the other (a tick, `campaign run --config`,
		// another worker's tick of another second): two would text the same people. Of runs left
		// unfinished together, the oldest goes on, so they never wait for each other.
		const runs = (await this.store.unfinishedRuns()).filter((r) => r.campaign === campaign.name);
		const since = runs.find((r) => r.run === run)?.startedAt ?? Infinity;
		const other = runs.find(
			(r) => r.run !== run && (r.startedAt < since || (r.startedAt === since && r.run < run)),
		);
		if (other) {
			log.warn('campaign run skipped: another run of it is not finished', { other: other.run });
			return 'skipped';
		}
		const startedAt = Date.now();
		const named: EventRun = { campaign: campaign.name, run };
		await this.store.startRun(
			{ run, campaign: campaign.name, startedAt },
			events?.startedForwards(named, startedAt),
		);
		events?.wake();
		const plan: RunPlan = {
			named,
			spec: configuredSpec(campaign, run, config.links.baseUrl),
			pace: runPace(campaign),
			wants: {
				receipts: campaign.receipts === true,
				replies: campaign.replies !== false,
				from: campaign.from,
			},
			// A run paused when the worker stopped is taken up paused: it waits for the resume and goes on to its end.
			waitWhilePaused: true,
			// A pause from `cloudtel campaign pause` writes the ledger alone: the run announces it.
			announcePauses: 'every',
		};
		return this.runner.run(plan, signal, log, {
			after: (outcome, ledger) => this.ended(outcome, named, index, ledger, log),
		});
	}

	/** Closes the run's record with its end event, unless a stop cut it short (resumed at the next start). */
	private async ended(
		outcome: RunOutcome,
		named: EventRun,
		index: number,
		ledger: Ledger | undefined,
		log: JsonLogger,
	): Promise<RunEnd> {
		const { events } = this.runner;
		let stop: StopReason | 'failed';
		let reason: string | undefined;
		let detail: string | undefined;
		if ('summary' in outcome) {
			const { summary } = outcome;
			// The store went away under the run: the scheduler resumes it once the store answers.
			if (summary.storeFault)
				throw new StoreFault(
					`the database failed under the run: ${summary.message ?? 'no detail'}`,
				);
			if (summary.stop === 'interrupted') return 'interrupted';
			stop = summary.stop;
			detail = summary.stop === 'failed' ? summary.message : undefined;
		} else {
			const { error } = outcome;
			// Nothing is settled wrongly by calling it failed: the scheduler resumes it once the store answers.
			if (isStoreFault(error)) throw error;
			const problem = configProblem(error, index);
			const message =
				problem ??
				(error instanceof FatalError ? error.message : String((error as Error).stack ?? error));
			log.error('campaign run failed', { reason: message });
			stop = 'failed';
			reason = `failed: ${message}`;
			detail = problem ?? (error as Error).message;
		}
		const at = Date.now();
		const forwards =
			stop === 'paused'
				? await this.runner.pausedForwards(named, ledger)
				: stop === 'finished' || stop === 'cancelled' || stop === 'failed'
					? await this.runner.finishedForwards(named, stop, ledger, at, detail)
					: [];
		await this.store.finishRun(named.run, reason ?? stop, at, forwards);
		events?.wake();
		return stop === 'failed' ? 'failed' : 'finished';
	}
}
