import type { CampaignCounts } from '../../../../api';
import { STALE_OWNER_MS } from '../../errors';
import type { ApiCampaignRecord, ApiCampaignStore } from '../../storage/apiCampaignStore';
import type { Ledger } from '../../storage/ledger';
import { ownerIsAlive } from '../../storage/ownerIsAlive';
import type { CampaignEvents, EventRun } from '../callbacks/5-events/campaignEvents';
import { ApiError } from './apiError';
import { campaignStatusOf } from './campaignStatusOf';

/** What a control needs of the runner in its own process: to run a campaign now, and whether it runs one. */
export interface CampaignKicker {
	kick(name: string): void;
	isRunning(name: string): boolean;
}

export interface CampaignControlParts {
	ledger: Ledger;
	store: ApiCampaignStore;
	/** The runner in this process (the worker's); the CLI has none, and the runners look for started campaigns. */
	runner?: CampaignKicker;
	events?: CampaignEvents;
	now?: () => number;
}

/** What a cancel did: a live run cancels its own pending rows once its batches in flight settle. */
export type CancelOutcome = { live: true } | { live: false; cancelled: number; uncertain: number };

/**
 * Pause, resume, cancel and delete, whichever interface asks (`cloudtel campaign`, the
 * campaign API, the Campaign node through it, the dashboard): each acts on the ledger's
 * campaign, which an API campaign has from its start, so what one interface did the others
 * see and can undo. The callers check what may be asked and say it in their own words.
 */
export class CampaignControl {
	constructor(private readonly parts: CampaignControlParts) {}

	private now(): number {
		return (this.parts.now ?? Date.now)();
	}

	/** One write: paused in the ledger, which a run watches (an API campaign's, with its campaign.paused). */
	async pause(name: string): Promise<void> {
		const { store, ledger, events } = this.parts;
		const api = await store.campaign(name);
		if (!api) {
			if (await ledger.campaign(name)) await ledger.setPaused(name, true);
			return;
		}
		if (api.state !== 'started') return;
		const at = this.now();
		// Each pause is its own event, queued by the move itself: the time it was paused tells them apart.
		const { counts } = await campaignStatusOf(api, store, ledger, at);
		if (await store.pause(name, at, events?.pausedForwards(eventRun(api), at, counts, at)))
			events?.wake();
	}

	/** One write in the ledger; an API campaign goes on in this worker at once. */
	async resume(name: string): Promise<void> {
		const { store, ledger, runner } = this.parts;
		if (!(await store.campaign(name))) {
			if (await ledger.campaign(name)) await ledger.setPaused(name, false);
			return;
		}
		if (await store.resume(name, this.now())) runner?.kick(name);
	}

	/**
	 * With a live run, one write: cancelled in the ledger with why and when, which the run
	 * watches and ends once its batches in flight settle (an API campaign shows cancelled
	 * meanwhile). With none, its pending rows are cancelled now (those a dead run left
	 * submitting uncertain), and an API campaign moves to cancelled in the write that queues
	 * its campaign.finished.
	 */
	async cancel(name: string, reason: string): Promise<CancelOutcome> {
		const { store, ledger, runner, events } = this.parts;
		const api = await store.campaign(name);
		const stored = await ledger.campaign(name);
		const open = stored !== undefined && stored.phase !== 'finished';
		const live =
			open &&
			(runner?.isRunning(name) === true ||
				(stored.owner !== undefined && ownerIsAlive(stored.owner, STALE_OWNER_MS)));
		// A crash before the run settles leaves it so: the next worker to take it up finishes it.
		if (live) {
			await ledger.setPhase(name, 'cancelled', { reason, at: this.now() });
			return { live: true };
		}
		if (open) await ledger.setPhase(name, 'cancelled');
		const movable = ['draft', 'started'] as const;
		const uncertain = open ? await ledger.recoverSubmitting(name) : 0;
		const cancelled = open ? await ledger.cancelPending(name) : 0;
		if (api && (movable as readonly string[]).includes(api.state)) {
			// Queued by the move itself, so no crash between them loses it. A draft never announced a start.
			const at = this.now();
			const forwards =
				api.state === 'draft' || !events
					? undefined
					: events.finishedForwards(
							eventRun(api),
							'cancelled',
							await this.endCounts(api, at),
							at,
							reason,
						);
			if ((await store.end(name, movable, 'cancelled', at, reason, forwards)) && forwards?.length)
				events?.wake();
		}
		return { live: false, cancelled, uncertain };
	}

	/**
	 * The campaign's ledger rows, and an API campaign's record and pages: the name is
	 * free again. An API campaign that may still send is refused (cancel it first); the
	 * caller refuses a ledger campaign's live run. The ledger first, the record last, as
	 * retention does: a delete cut off between them is made again whole.
	 */
	async delete(name: string, purge = false): Promise<boolean | undefined> {
		const { store, ledger, runner } = this.parts;
		const api = await store.campaign(name);
		if (api?.state === 'draft') {
			if (!(await store.removeDraft(name)))
				throw new ApiError(
					'conflict',
					`campaign "${name}" was started meanwhile: cancel it first`,
					{
						field: 'state',
					},
				);
			return undefined;
		}
		if (api) {
			const shown = (await campaignStatusOf(api, store, ledger, this.now())).state;
			// Cancelled in the ledger, its record not yet: its run has yet to settle the batches in flight.
			const cancelling = shown === 'cancelled' && api.state !== 'cancelled';
			if (
				api.state !== 'finished' &&
				api.state !== 'cancelled' &&
				api.state !== 'failed' &&
				!cancelling
			)
				throw new ApiError(
					'conflict',
					`campaign "${name}" is ${shown}: cancel it first, then delete it`,
					{ field: 'state' },
				);
			// A run that saw the cancel late may still be writing its rows: deleting under it would leave them behind.
			const stored = await ledger.campaign(name);
			if (
				cancelling ||
				runner?.isRunning(name) ||
				(stored?.owner !== undefined &&
					stored.phase !== 'finished' &&
					stored.phase !== 'cancelled' &&
					ownerIsAlive(stored.owner, STALE_OWNER_MS))
			)
				throw new ApiError(
					'conflict',
					`campaign "${name}" is ${shown} but its run is still settling: delete it in a moment`,
					{ field: 'state' },
				);
		}
		const reclaimed = await ledger.deleteCampaign(name, purge && !api);
		if (!api) return reclaimed;
		await store.remove(name);
		// Its pages go with the record, after the rows: the purge rewrites the file once both are gone.
		return purge ? ledger.deleteCampaign(name, true) : undefined;
	}

	/** The counts the campaign shows once cancelled: its pages dropped by the move, the ledger's rows alone. */
	private async endCounts(record: ApiCampaignRecord, at: number): Promise<CampaignCounts> {
		const noPages = { pageTotals: () => Promise.resolve({ pages: [], recipients: 0 }) };
		const cancelled = { ...record, state: 'cancelled' as const };
		return (await campaignStatusOf(cancelled, noPages, this.parts.ledger, at)).counts;
	}
}

/** An API campaign's run as its events name it: the campaign itself, to its own URL if it has one. */
export function eventRun(record: ApiCampaignRecord): EventRun {
	return {
		campaign: record.name,
		run: record.name,
		...(record.settings.events !== undefined ? { url: record.settings.events } : {}),
	};
}
