import { emptyCampaignCounts, type CampaignCounts } from '../../../../api';
import { FatalError, RUN_DEFAULTS } from '../../errors';
import { runCampaign } from '../../campaign/runCampaign';
import { backoffDelay } from '../../pacing/backoff';
import type { CampaignConfig, WorkerConfig } from '../../config/workerConfigSchema';
import { dbLocation } from '../../storage/dbLocation';
import { openRunLedger } from '../../storage/openStores';
import type { Ledger } from '../../storage/ledger';
import type { KeyedForward, RunStore } from '../../storage/daemonStore';
import type { CampaignEvents, EventRun } from '../callbacks/5-events/campaignEvents';
import { campaignCounts } from '../../campaign/campaignCounts';
import type { StopReason } from '../../campaign/campaignSummary';
import type { Reporter } from '../../campaign/reporter';
import type { JsonLogger } from '../jsonLogger';
import { configuredSpec } from './configuredSpec';
import { checkCampaignCsv, configProblem } from './csvCheck';
import { LogReporter } from './logReporter';
import { PauseReporter } from './pauseReporter';
import { dailyCap } from './dailyCap';
import { runCallbacks } from './runCallbacks';
import { daemonChunks, waitingForPostgres } from './runLedger';
import { GatedChunks } from './sendingGate';
import { isStoreFault, StoreFault } from '../../storage/storeFault';
import { daemonClock } from '../daemonClock';
import { withVariantEvent } from '../callbacks/5-events/variantEventReporter';

/** Attempts at queuing a campaign.paused (about a minute of back-off) before it is given up, logged. */
const PAUSE_QUEUE_TRIES = 16;

/** Whether the run may be taken up again at the next start: only one cut short by a stop. */
export type RunEnd = 'finished' | 'interrupted' | 'failed' | 'skipped';

/**
 * Runs one cron tick of a campaign with the campaign engine. The run gets a name of its
 * own (`<campaign>-<tick>`), is recorded before it starts, and closed when it ends, except
 * when a shutdown cuts it short: the next start resumes it where it stopped.
 */
export class CampaignRunner {
	constructor(
		private readonly config: WorkerConfig,
		private readonly store: RunStore,
		private readonly log: JsonLogger,
		/** False while callbacks spooled in an outage wait to be processed: sending waits for them. */
		private readonly sendingMayGo: () => boolean = () => true,
		/** campaign.started, .finished and .paused, queued with the run's record. */
		private readonly events?: CampaignEvents,
	) {}

	async run(campaign: CampaignConfig, run: string, signal: AbortSignal): Promise<RunEnd> {
		const log = this.log.child({ campaign: campaign.name, run });
		const index = this.config.campaigns.indexOf(campaign);
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
			this.events?.startedForwards(named, startedAt),
		);
		this.events?.wake();
		// Its own connection: the engine holds cursors open while it writes reports.
		let end: RunEnd;
		let ledger: Ledger | undefined;
		try {
			const location = dbLocation(this.config.db, 'db');
			// A Postgres restarting under the run: it waits, then goes on (or, past the limit, stops to be resumed).
			ledger = await openRunLedger(location, waitingForPostgres(log));
			const chunks = new GatedChunks(daemonChunks(ledger), this.sendingMayGo, log, signal);
			const summary = await runCampaign(
				{
					spec: configuredSpec(campaign, run, this.config.links.baseUrl),
					provider: this.config.provider,
					rate: campaign.rate ?? RUN_DEFAULTS.rate,
					batchSize: campaign.batchSize ?? RUN_DEFAULTS.batchSize,
					concurrency: RUN_DEFAULTS.concurrency,
					callbacks: runCallbacks(this.config.server, {
						receipts: campaign.receipts === true,
						replies: campaign.replies !== false,
						from: campaign.from,
					}),
					...dailyCap(this.config),
					pricePerSegment: campaign.pricePerSegment ?? this.config.limits?.pricePerSegment,
					maxCost: campaign.maxCost,
					maxFailureRate: campaign.maxFailureRate,
					frequencyCap: campaign.frequencyCap,
					// A run paused when the worker stopped is taken up paused: it waits for the resume and goes on to its end.
					waitWhilePaused: true,
					waitForVariantDecision: true,
					waitForNextDay: true,
					now: daemonClock.now,
				},
				{
					ledger,
					reporter: withVariantEvent(this.reporter(named, ledger, log), this.events, named, log),
					signal,
					chunks,
				},
			);
			if (summary.storeFault)
				throw new StoreFault(
					`the database failed under the run: ${summary.message ?? 'no detail'}`,
				);
			end =
				summary.stop === 'interrupted'
					? 'interrupted'
					: summary.stop === 'failed'
						? 'failed'
						: 'finished';
			if (end !== 'interrupted') {
				const at = Date.now();
				await this.store.finishRun(
					run,
					summary.stop,
					at,
					await this.endForwards(
						named,
						summary.stop,
						ledger,
						at,
						summary.stop === 'failed' ? summary.message : undefined,
					),
				);
				this.events?.wake();
			}
		} catch (error) {
			// The store went away under the run: nothing is settled wrongly by calling it failed;
			// the scheduler resumes it once the store answers.
			if (isStoreFault(error)) throw error;
			end = 'failed';
			const message =
				configProblem(error, index) ??
				(error instanceof FatalError ? error.message : String((error as Error).stack ?? error));
			log.error('campaign run failed', { reason: message });
			const at = Date.now();
			await this.store.finishRun(
				run,
				`failed: ${message}`,
				at,
				await this.endForwards(
					named,
					'failed',
					ledger,
					at,
					configProblem(error, index) ?? (error as Error).message,
				),
			);
			this.events?.wake();
		} finally {
			await ledger?.close();
		}
		return end;
	}

	/**
	 * The event a run's end announces: campaign.finished with the run's figures (as
	 * `campaign status` shows them), or campaign.paused; none for a stop that resumes it.
	 */
	private async endForwards(
		run: EventRun,
		stop: StopReason,
		ledger: Ledger | undefined,
		at: number,
		reason?: string,
	): Promise<KeyedForward[]> {
		if (
			!this.events?.enabled ||
			(stop !== 'finished' && stop !== 'cancelled' && stop !== 'failed' && stop !== 'paused')
		)
			return [];
		let counts: CampaignCounts | undefined;
		try {
			counts = ledger ? await campaignCounts(ledger, run.run) : undefined;
		} catch (error) {
			// Figures that cannot be read are not announced as zeros: the run stays open and is
			// resumed once the store answers, and its end announced then. A failed run says why without them.
			if (stop !== 'failed')
				throw new StoreFault(
					`the run's figures could not be read for its ${stop} event: ${(error as Error).message}`,
				);
		}
		if (stop === 'paused') return this.pauseForwards(run, ledger, counts);
		return this.events.finishedForwards(run, stop, counts ?? emptyCampaignCounts(), at, reason);
	}

	/** The run's log lines; and its campaign.paused queued as soon as the engine sees the pause. */
	private reporter(run: EventRun, ledger: Ledger, log: JsonLogger): Reporter {
		const lines = new LogReporter(log, undefined, this.config.log.phoneNumbers);
		const events = this.events;
		if (!events?.enabled) return lines;
		return new PauseReporter(lines, () => {
			void (async () => {
				// The store may be away a moment: asked again with back-off, as the outbox does, while the run waits paused.
				for (let failures = 0; ; failures++) {
					try {
						await events.queue(await this.pauseForwards(run, ledger));
						return;
					} catch (error) {
						if (failures === PAUSE_QUEUE_TRIES - 1) throw error;
						await new Promise((r) =>
							setTimeout(r, backoffDelay(failures + 1, { baseMs: 250, maxMs: 5_000 })),
						);
					}
				}
			})().catch((error: Error) =>
				log.error('campaign.paused not queued: the store does not answer', { error }),
			);
		});
	}

	/**
	 * A pause is known by when it was made (the ledger campaign's last change, the pause
	 * itself while the run waits), so each worker sending the run, and the run's end, name
	 * the same pause alike and it is announced once.
	 */
	private async pauseForwards(
		run: EventRun,
		ledger: Ledger | undefined,
		counts?: CampaignCounts,
	): Promise<KeyedForward[]> {
		const record = await ledger?.campaign(run.run).catch(() => undefined);
		const at = record?.updatedAt ?? Date.now();
		const figures = counts ?? (ledger ? await campaignCounts(ledger, run.run) : undefined);
		return this.events?.pausedForwards(run, at, figures, at, record?.pausedBy) ?? [];
	}
}
