import type { SharedLedger } from '../storage/sharedLedger';
import type { ChunkSource, ChunkTaker, Take, TakeContext } from './chunkSource';
import { sleep } from './sleep';

/**
 * Chunks for a run several processes send together: rows no other process holds, claimed
 * from the shared ledger, paced by the run's rate across all of them.
 */
export function claimedChunks(shared: SharedLedger): ChunkSource {
	return {
		together: true,
		recover: async () => 0,
		taker: (context) => new ClaimedTaker(shared, context),
	};
}

class ClaimedTaker implements ChunkTaker {
	suppressed = 0;
	/** Nothing pending was found at the last look: the next look waits for no slot of the rate. */
	private drained = false;

	constructor(
		private readonly shared: SharedLedger,
		private readonly c: TakeContext,
	) {}

	/**
	 * A slot of the run's rate first (so rows marked submitting wait for no one), then rows
	 * no other process holds. The run is over for this process only when nothing is pending
	 * and no chunk of anyone's is on its way: one cut off by a dying process may still come
	 * back to pending.
	 */
	async next(): Promise<Take> {
		const { campaign, signal } = this.c;
		if (!this.drained && !(await this.pace(this.c.chunkSize))) return 'changed';
		if (signal?.aborted) return 'again';
		const claimed = await this.shared.claimChunk(campaign, this.c.chunkSize);
		this.suppressed += claimed.suppressed;
		if (claimed.rows.length > 0) {
			// Claimed already: sent even if the wait is cut short, since the rows are this process's now.
			if (this.drained) await this.pace(claimed.rows.length);
			this.drained = false;
			return { chunk: claimed.chunk, rows: claimed.rows };
		}
		if (claimed.suppressed > 0) return 'again';
		this.drained = true;
		if (this.c.inflight.size > 0) {
			await this.c.inflight.one();
			return 'again';
		}
		if ((await this.shared.submissionsInFlight(campaign)) === 0) return 'done';
		await sleep(this.c.pollMs, signal);
		return 'again';
	}

	/** False when the wait was cut short (a stop, a pause, a cancel). */
	private async pace(count: number): Promise<boolean> {
		if (this.c.rate <= 0) return true;
		return this.c.pace(await this.shared.pace(this.c.campaign, count, this.c.rate));
	}
}
