import { steps, type Step, type Work } from '../work';
import { lostConnection } from './pgDatabase';

interface Pending {
	list: readonly Step[];
	resolve: (changed: number[]) => void;
	reject: (error: unknown) => void;
}

/**
 * Writes that come while a commit is on its way share the next one. Each commit waits for
 * Postgres to flush its WAL, and the pool has four connections: with a commit per callback
 * stored and per forward settled, a burst of 1,000 replies went at 630 to 730 a second
 * (reply-latency, BENCH_DB=postgres), and at 930 to 980 with them gathered. One transaction
 * commits at a time; the writes that came meanwhile go together in the next, in the order
 * they came.
 *
 * A write that fails on a healthy connection (a deadlock with another worker's batch, say)
 * aborts its whole transaction: the batch is then written again one write per
 * transaction, so it fails alone. A lost connection fails them all, as it would have.
 */
export class PgGroupCommit {
	private queue: Pending[] = [];
	private flushing = false;

	/** `tx` runs a unit of work in one transaction of the pool. */
	constructor(private readonly tx: <T>(work: Work<T>) => Promise<T>) {}

	write(list: readonly Step[]): Promise<number[]> {
		return new Promise((resolve, reject) => {
			this.queue.push({ list, resolve, reject });
			if (!this.flushing) void this.flush();
		});
	}

	private async flush(): Promise<void> {
		this.flushing = true;
		while (this.queue.length > 0) {
			const batch = this.queue;
			this.queue = [];
			try {
				const results = await this.commit(batch);
				batch.forEach((item, i) => item.resolve(results[i]));
			} catch (error) {
				if (batch.length === 1 || lostConnection(error)) batch.forEach((item) => item.reject(error));
				else for (const item of batch) await this.commit([item]).then(([changed]) => item.resolve(changed), item.reject);
			}
		}
		this.flushing = false;
	}

	private commit(batch: Pending[]): Promise<number[][]> {
		return this.tx(
			(function* () {
				const results: number[][] = [];
				for (const item of batch) results.push(yield* steps(item.list));
				return results;
			})(),
		);
	}
}
