import { emptyCampaignCounts, isBlank } from '../../../../api';
import { FatalError, RUN_DEFAULTS } from '../../errors';
import { claimedChunks } from '../../campaign/claimedChunks';
import { localChunks } from '../../campaign/localChunks';
import { runCampaign } from '../../campaign/runCampaign';
import type { CampaignConfig, WorkerConfig } from '../../config/workerConfigSchema';
import { dbLocation } from '../../storage/dbLocation';
import { openLedger, sharedLedgerOf } from '../../storage/openStores';
import type { Ledger } from '../../ledger/ledger';
import type { KeyedForward, RunStore } from '../../storage/daemonStore';
import type { CampaignEvents, EventRun } from '../events/campaignEvents';
import { campaignCounts } from '../../campaign/campaignCounts';
import type { StopReason } from '../../campaign/campaignSummary';
import { callbackUrl } from '../http/callbackUrls';
import type { JsonLogger } from '../jsonLogger';
import { configuredSpec } from './configuredSpec';
import { checkCampaignCsv, configProblem } from './csvCheck';
import { LogReporter } from './logReporter';
import { gatedLedger } from './sendingGate';
import { isStoreFault, StoreFault } from '../../storage/storeFault';
import { ridingOutRestarts } from '../../storage/postgres/ridingOutRestarts';

/** Whether the run may be taken up again at the next start: only one cut short by a stop. */
export type RunEnd = 'finished' | 'interrupted' | 'failed';

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
			for (const problem of problems) log.error('campaign not run: its config does not fit its CSV', { problem });
			return 'failed';
		}
		const startedAt = Date.now();
		const named: EventRun = { campaign: campaign.name, run };
		await this.store.startRun({ run, campaign: campaign.name, startedAt }, this.events?.startedForwards(named, startedAt));
		this.events?.wake();
		// Its own connection: the engine holds cursors open while it writes reports.
		let end: RunEnd;
		let ledger: Ledger | undefined;
		try {
			const location = dbLocation(this.config.db, 'db');
			const opened = await openLedger(location);
			// A Postgres restarting under the run: it waits, then goes on (or, past the limit, stops to be resumed).
			const riding = location.kind === 'postgres' ? ridingOutRestarts(opened, (waitedMs, error) => waitedMs === 0 && log.warn('the connection to Postgres was lost; the run waits for it', { error })) : opened;
			ledger = gatedLedger(riding, this.sendingMayGo, log, signal);
			// Where the ledger is shared (Postgres), every worker sends the run together, whichever of them the tick started first.
			const shared = sharedLedgerOf(ledger);
			const chunks = shared ? claimedChunks(shared) : localChunks;
			const summary = await runCampaign(
				{
					spec: configuredSpec(campaign, run),
					provider: this.config.provider,
					rate: campaign.rate ?? RUN_DEFAULTS.rate,
					batchSize: campaign.batchSize ?? RUN_DEFAULTS.batchSize,
					concurrency: RUN_DEFAULTS.concurrency,
					callbacks: this.callbacks(campaign),
				},
				{ ledger, reporter: new LogReporter(log), signal, chunks },
			);
			if (summary.storeFault) throw new StoreFault(`the database failed under the run: ${summary.message ?? 'no detail'}`);
			end = summary.stop === 'interrupted' ? 'interrupted' : summary.stop === 'failed' ? 'failed' : 'finished';
			if (end !== 'interrupted') {
				const at = Date.now();
				await this.store.finishRun(run, summary.stop, at, await this.endForwards(named, summary.stop, ledger, at, summary.stop === 'failed' ? summary.message : undefined));
				this.events?.wake();
			}
		} catch (error) {
			// The store went away under the run: nothing is settled wrongly by calling it failed;
			// the scheduler resumes it once the store answers.
			if (isStoreFault(error)) throw error;
			end = 'failed';
			const message = configProblem(error, index) ?? (error instanceof FatalError ? error.message : String((error as Error).stack ?? error));
			log.error('campaign run failed', { reason: message });
			const at = Date.now();
			await this.store.finishRun(run, `failed: ${message}`, at, await this.endForwards(named, 'failed', ledger, at, configProblem(error, index) ?? (error as Error).message));
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
	private async endForwards(run: EventRun, stop: StopReason, ledger: Ledger | undefined, at: number, reason?: string): Promise<KeyedForward[]> {
		if (!this.events?.enabled || (stop !== 'finished' && stop !== 'cancelled' && stop !== 'failed' && stop !== 'paused')) return [];
		// A ledger that failed under the run still gives its figures if it can; else none are known.
		const counts = ledger ? await campaignCounts(ledger, run.run).catch(() => undefined) : undefined;
		if (stop === 'paused') return this.events.pausedForwards(run, at, counts);
		return this.events.finishedForwards(run, stop, counts ?? emptyCampaignCounts(), at, reason);
	}

	/** Receipts always; replies only to a leased sender, as the provider allows no other. */
	private callbacks(campaign: CampaignConfig) {
		const { publicUrl, secret } = this.config.server;
		const leased = isBlank(campaign.from);
		return {
			...(campaign.receipts ? { DeliveryReceiptWebhookUri: callbackUrl(publicUrl, secret, 'receipts') } : {}),
			...(leased && campaign.replies !== false ? { WebhookUri: callbackUrl(publicUrl, secret, 'replies') } : {}),
		};
	}
}
