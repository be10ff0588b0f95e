import { FatalError } from '../errors';
import type { ChunkSource, ChunkTaker, Take, TakeContext } from './chunkSource';

/** Consecutive refusals to mark a chunk: a ledger that keeps failing stops the run. */
const MAX_MARK_FAILURES = 5;

/**
 * Chunks for a run one process sends alone: the next pending rows after the last taken,
 * paced by this process's bucket, marked submitting before they leave.
 */
export const localChunks: ChunkSource = {
	together: false,
	recover: (ledger, campaign) => ledger.recoverSubmitting(campaign),
	taker: (context) => new LocalTaker(context),
};

class LocalTaker implements ChunkTaker {
	suppressed = 0;
	/** The last line taken: rows up to it are sent or on their way. */
	private cursor = 0;
	private markFailures = 0;
	private chunkNo = Date.now();

	constructor(private readonly c: TakeContext) {}

	async next(): Promise<Take> {
		const { ledger, campaign, signal } = this.c;
		const rows = await ledger.peekPending(campaign, this.c.chunkSize, this.cursor);
		const suppressed = rows.filter((r) => r.suppressed);
		if (suppressed.length > 0) {
			await ledger.markSuppressed(
				campaign,
				suppressed.map((r) => r.line),
			);
			this.suppressed += suppressed.length;
			return 'again';
		}
		if (rows.length === 0) {
			if (this.c.inflight.size === 0) return 'done';
			await this.c.inflight.one();
			return 'again';
		}
		let whole = true;
		const taken = await this.c.bucket.take(
			rows.length,
			async (ms) => void (whole = await this.c.pace(ms)),
			() => !whole || signal?.aborted === true,
		);
		// Stopped, paused or cancelled while it waited: the send loop looks at why.
		if (!taken) return 'changed';
		const chunk = this.chunkNo++;
		const lines = rows.map((r) => r.line);
		let durable: Promise<void>;
		try {
			// The request waits for the disk, not this loop.
			({ durable } = await ledger.markSubmittingCommitted(campaign, lines, chunk));
		} catch (error) {
			// Cancelled (or otherwise changed) under us by another process: look again. A ledger
			// that refuses again and again (a full disk, say) ends the run instead of a busy loop;
			// nothing of this chunk was sent.
			if (++this.markFailures >= MAX_MARK_FAILURES)
				throw new FatalError(
					`the ledger could not record rows as submitting: ${(error as Error).message}`,
					1,
					{ cause: error },
				);
			return 'changed';
		}
		// Kept for the chunk's request, which waits for it: not an unhandled rejection meanwhile.
		durable.catch(() => undefined);
		this.markFailures = 0;
		this.cursor = lines[lines.length - 1];
		return { chunk, rows, durable };
	}
}
