import type { ApiCampaignStore } from '../storage/apiCampaignStore';
import type { Ledger } from '../storage/ledger';
import type { DaemonStore } from '../storage/daemonStore';
import type { LinkStore } from '../storage/linkStore';
import type { Logger } from './jsonLogger';

const DAY_MS = 86_400_000;
/** Pruning deletes little at a time when it runs this often, and nothing waits on it. */
export const PRUNE_EVERY_MS = 3_600_000;

/**
 * Keeps a worker left running for years from growing without bound: what is older than
 * the retention period and finished with is deleted, at start and then hourly. A run's
 * ledger rows and its record go in one transaction (Ledger.deleteCampaign). So do the
 * campaigns made through the API once ended: their ledger campaign, then their record
 * with any pages. Idempotent, so several workers on one
 * Postgres may all do it.
 */
export class Retention {
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly store: DaemonStore,
		private readonly ledger: Ledger,
		private readonly days: number,
		private readonly log: Logger,
		/** The API campaigns' store, where the API is on. */
		private readonly api?: { store: ApiCampaignStore },
		/** Tracked links past `links.ttl`: deleted, so they answer as unknown (404) from then on. */
		private readonly links?: { store: LinkStore; ttlMs: number },
	) {}

	start(): void {
		const run = () =>
			void this.prune(Date.now()).catch((error: Error) =>
				this.log.error('pruning failed; trying again in an hour', { error }),
			);
		run();
		this.timer = setInterval(run, PRUNE_EVERY_MS);
		this.timer.unref();
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
	}

	async prune(now: number): Promise<{
		events: number;
		forwards: number;
		runs: number;
		apiCampaigns: number;
		links: number;
	}> {
		const before = now - this.days * DAY_MS;
		// Deleting a run's campaign takes its record too, in the same transaction.
		const runs = await this.store.finishedRunsBefore(before);
		for (const run of runs) await this.ledger.deleteCampaign(run);
		const left = await this.store.prune(before);
		const pruned = {
			...left,
			runs: runs.length + left.runs,
			apiCampaigns: await this.pruneApiCampaigns(before),
			links: this.links ? await this.links.store.pruneLinks(now - this.links.ttlMs) : 0,
		};
		if (pruned.events + pruned.forwards + pruned.runs + pruned.apiCampaigns + pruned.links > 0)
			this.log.info('pruned', {
				...pruned,
				olderThan: new Date(before).toISOString(),
				retentionDays: this.days,
			});
		return pruned;
	}

	/**
	 * The ledger campaign first, the record last: a prune stopped between them finds the
	 * record again next time, and a name is free for a new campaign only once both are gone.
	 */
	private async pruneApiCampaigns(before: number): Promise<number> {
		if (!this.api) return 0;
		let pruned = 0;
		for (const name of await this.api.store.endedBefore(before)) {
			await this.ledger.deleteCampaign(name);
			if (await this.api.store.remove(name)) pruned++;
		}
		return pruned;
	}
}
