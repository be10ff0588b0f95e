import { emptyCampaignCounts, type CampaignCounts } from '../../../../api';
import { RUN_DEFAULTS } from '../../errors';
import {
	runCampaign,
	type RunCampaignDeps,
	type RunCampaignOptions,
} from '../../campaign/runCampaign';
import type { CampaignSummary } from '../../campaign/campaignSummary';
import type { Reporter } from '../../campaign/reporter';
import { campaignCounts } from '../../campaign/campaignCounts';
import type { WorkerConfig } from '../../config/workerConfigSchema';
import { dbLocation } from '../../storage/dbLocation';
import { openRunLedger, sharedLedgerOf } from '../../storage/openStores';
import { claimedChunks } from '../../campaign/claimedChunks';
import type { ChunkSource } from '../../campaign/chunkSource';
import { localChunks } from '../../campaign/localChunks';
import type { Ledger } from '../../storage/ledger';
import type { KeyedForward } from '../../storage/daemonStore';
import { StoreFault } from '../../storage/storeFault';
import type { CampaignEvents, EventRun, FinishedState } from '../callbacks/5-events/campaignEvents';
import { withVariantEvent } from '../callbacks/5-events/variantEventReporter';
import type { JsonLogger } from '../jsonLogger';
import { daemonClock } from '../daemonClock';
import { dailyCap } from './dailyCap';
import { LogReporter } from './logReporter';
import { PauseReporter } from './pauseReporter';
import { backoffDelay } from '../../pacing/backoff';
import { runCallbacks } from './runCallbacks';
import { GatedChunks } from './sendingGate';

/** Attempts at queuing a campaign.paused (about a minute of back-off) before it is given up, logged. */
const PAUSE_QUEUE_TRIES = 16;

/** A campaign's pace and guardrails, as its config or its API settings give them. */
export type RunPace = Pick<
	RunCampaignOptions,
	'rate' | 'batchSize' | 'maxCost' | 'maxFailureRate' | 'frequencyCap' | 'pricePerSegment'
>;

/** A campaign's pace and guardrails as its config or its API settings give them, with the run defaults. */
export function runPace(given: Partial<RunPace>): RunPace {
	return {
		rate: given.rate ?? RUN_DEFAULTS.rate,
		batchSize: given.batchSize ?? RUN_DEFAULTS.batchSize,
		maxCost: given.maxCost,
		pricePerSegment: given.pricePerSegment,
		maxFailureRate: given.maxFailureRate,
		frequencyCap: given.frequencyCap,
	};
}

/** One run of a campaign, whatever started it: a cron tick, `campaign run --config`, the API. */
export interface RunPlan {
	/** How its events name it; `run` is its campaign in the ledger. */
	named: EventRun;
	spec: RunCampaignOptions['spec'];
	pace: RunPace;
	wants: { receipts: boolean; replies: boolean; from?: string };
	/** An API campaign's rows, from its stored pages; else the CSV at `spec.csvPath`. */
	input?: RunCampaignDeps['input'];
	/** A run found paused waits for its resume (a cron run taken up after a restart). */
	waitWhilePaused?: boolean;
	/**
	 * The pauses its run announces (campaign.paused) as soon as the engine sees them: every
	 * one, or its guardrails' alone where a person's pause is announced by the write that
	 * makes it (an API campaign's, CampaignControl).
	 */
	announcePauses: 'every' | 'guardrails';
}

/** How the engine left a run: its summary, or what it threw (a setting, the store, the ledger not opened). */
export type RunOutcome = { summary: CampaignSummary } | { error: unknown };

/** What the starter of a run does around the engine, with the run's ledger open. */
export interface RunSteps<T> {
	/** Before the engine: an end to take instead of running (an API campaign cancelled or paused meanwhile). */
	before?: (ledger: Ledger) => Promise<{ instead: T } | undefined>;
	/** The run's end; `ledger` undefined when it never opened. */
	after: (outcome: RunOutcome, ledger: Ledger | undefined) => Promise<T>;
}

export interface CampaignRunnerParts {
	config: WorkerConfig;
	/** False while callbacks spooled in an outage wait to be processed: sending waits for them. */
	sendingMayGo?: () => boolean;
	events?: CampaignEvents;
}

/**
 * The worker's one way to send a campaign with the engine, config and API campaigns
 * alike: the run's own ledger connection, the worker's provider, pace defaults, daily
 * cap, webhooks, chunk source and log lines, and its campaign.finished. What started the
 * run (ConfigCampaignRuns, ApiCampaignLoop) decides what its end means for its records.
 */
export class CampaignRunner {
	constructor(private readonly parts: CampaignRunnerParts) {}

	get config(): WorkerConfig {
		return this.parts.config;
	}

	get events(): CampaignEvents | undefined {
		return this.parts.events;
	}

	async run<T>(
		plan: RunPlan,
		signal: AbortSignal,
		log: JsonLogger,
		steps: RunSteps<T>,
	): Promise<T> {
		let ledger: Ledger | undefined;
		try {
			let outcome: RunOutcome;
			try {
				// Its own connection: the engine holds cursors open while it writes reports. A Postgres
				// restarting under the run: it waits, then goes on (or, past the limit, stops to be resumed).
				ledger = await openRunLedger(dbLocation(this.config.db, 'db'), waitingForPostgres(log));
				const instead = await steps.before?.(ledger);
				if (instead) return instead.instead;
				outcome = { summary: await this.engine(plan, ledger, signal, log) };
			} catch (error) {
				outcome = { error };
			}
			return await steps.after(outcome, ledger);
		} finally {
			await ledger?.close();
		}
	}

	/**
	 * campaign.finished with the run's figures (as `campaign status` shows them), to queue
	 * in the write that ends the run; none where no event goes (a campaign's own URL takes
	 * its events whatever the config says).
	 */
	async finishedForwards(
		named: EventRun,
		state: FinishedState,
		ledger: Ledger | undefined,
		at: number,
		reason?: string,
	): Promise<KeyedForward[]> {
		const events = this.announcing(named);
		if (!events) return [];
		const counts = await this.figures(named, ledger, state);
		return events.finishedForwards(named, state, counts ?? emptyCampaignCounts(), at, reason);
	}

	/**
	 * campaign.paused, known by when the pause was made (the ledger campaign's last change,
	 * the pause itself while the run waits), so each worker sending the run, and the run's
	 * end, name the same pause alike and it is announced once.
	 */
	async pausedForwards(named: EventRun, ledger: Ledger | undefined): Promise<KeyedForward[]> {
		const events = this.announcing(named);
		if (!events) return [];
		const record = await ledger?.campaign(named.run).catch(() => undefined);
		const at = record?.updatedAt ?? Date.now();
		const counts = await this.figures(named, ledger, 'paused');
		return events.pausedForwards(named, at, counts, at, record?.pausedBy);
	}

	/** The events, when any goes for this run: a campaign's own URL takes them whatever the config says. */
	private announcing(named: EventRun): CampaignEvents | undefined {
		const events = this.parts.events;
		return events && (named.url !== undefined || events.enabled) ? events : undefined;
	}

	/**
	 * The run's figures for its event. Figures that cannot be read are not announced as zeros:
	 * the run stays open and is resumed once the store answers, and its event made then. A
	 * failure says why even without them.
	 */
	private async figures(
		named: EventRun,
		ledger: Ledger | undefined,
		event: FinishedState | 'paused',
	): Promise<CampaignCounts | undefined> {
		try {
			return ledger ? await campaignCounts(ledger, named.run) : undefined;
		} catch (error) {
			if (event === 'failed') return undefined;
			throw new StoreFault(
				`the run's figures could not be read for its ${event} event: ${(error as Error).message}`,
			);
		}
	}

	/** The run's log lines, with its campaign.paused queued as soon as the engine sees the pause. */
	private pauseReporter(lines: Reporter, plan: RunPlan, ledger: Ledger, log: JsonLogger): Reporter {
		const events = this.announcing(plan.named);
		if (!events) return lines;
		return new PauseReporter(lines, (guardrail) => {
			if (!guardrail && plan.announcePauses === 'guardrails') return;
			void (async () => {
				// The store may be away a moment: asked again with back-off, as the outbox does, while the run waits paused.
				for (let failures = 0; ; failures++) {
					try {
						await events.queue(await this.pausedForwards(plan.named, ledger));
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

	private engine(
		plan: RunPlan,
		ledger: Ledger,
		signal: AbortSignal,
		log: JsonLogger,
	): Promise<CampaignSummary> {
		const { config, sendingMayGo = () => true, events } = this.parts;
		const lines = new LogReporter(log, undefined, config.log.phoneNumbers);
		return runCampaign(
			{
				spec: plan.spec,
				provider: config.provider,
				...plan.pace,
				pricePerSegment: plan.pace.pricePerSegment ?? config.limits?.pricePerSegment,
				concurrency: RUN_DEFAULTS.concurrency,
				callbacks: runCallbacks(config.server, plan.wants),
				...dailyCap(config),
				...(plan.waitWhilePaused ? { waitWhilePaused: true } : {}),
				// The worker's runs wait for a variant decision and for the next day, and go on.
				waitForVariantDecision: true,
				waitForNextDay: true,
				now: daemonClock.now,
			},
			{
				ledger,
				reporter: withVariantEvent(
					this.pauseReporter(lines, plan, ledger, log),
					events,
					plan.named,
					log,
				),
				signal,
				chunks: new GatedChunks(daemonChunks(ledger), sendingMayGo, log, signal),
				...(plan.input ? { input: plan.input } : {}),
			},
		);
	}
}

/**
 * Where a run's chunks come from: where the ledger is shared (Postgres) every worker sends
 * the run together, whichever of them started it, so each claims its chunks.
 */
function daemonChunks(ledger: Ledger): ChunkSource {
	const shared = sharedLedgerOf(ledger);
	return shared ? claimedChunks(shared) : localChunks;
}

/** Told of each wait for a Postgres restarting under a run: one line when the wait starts. */
function waitingForPostgres(log: JsonLogger): (waitedMs: number, error: Error) => void {
	return (waitedMs, error) => {
		if (waitedMs === 0)
			log.warn('the connection to Postgres was lost; the run waits for it', { error });
	};
}
