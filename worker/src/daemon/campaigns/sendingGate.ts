import type { ChunkSource, ChunkTaker, Take, TakeContext } from '../../campaign/chunkSource';
import type { Ledger } from '../../storage/ledger';
import type { Logger } from '../jsonLogger';

const LOOK_EVERY_MS = 100;

/**
 * A run's chunk source, made to wait before it takes rows to send while `mayGo` says no:
 * callbacks spooled during an outage are not yet in the store and processed, and a STOP
 * among them must count before the next message to its number.
 */
export class GatedChunks implements ChunkSource {
	private told = false;

	constructor(
		private readonly source: ChunkSource,
		private readonly mayGo: () => boolean,
		private readonly log: Logger,
		private readonly signal: AbortSignal,
	) {}

	get together(): boolean {
		return this.source.together;
	}

	recover(ledger: Ledger, campaign: string): Promise<number> {
		return this.source.recover(ledger, campaign);
	}

	taker(context: TakeContext): ChunkTaker {
		const taker = this.source.taker(context);
		return {
			next: async (): Promise<Take> => {
				await this.wait();
				return taker.next();
			},
			get suppressed() {
				return taker.suppressed;
			},
		};
	}

	private async wait(): Promise<void> {
		while (!this.mayGo() && !this.signal.aborted) {
			if (!this.told)
				this.log.warn(
					'sending waits: callbacks received while the store was down are being taken in first',
				);
			this.told = true;
			await new Promise((r) => setTimeout(r, LOOK_EVERY_MS));
		}
		if (this.told) this.log.info('sending goes on: the spooled callbacks are processed');
		this.told = false;
	}
}
