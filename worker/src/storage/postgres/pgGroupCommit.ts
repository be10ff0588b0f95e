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

	/** `db` runs a unit of work in one transaction, and a write as an ordinary one. */
	constructor(
		private readonly db: {
			tx<T>(work: Work<T>): Promise<T>;
			write(list: readonly Step[]): Promise<number[]>;
		},
	) {}

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
				// A write alone is written as it would be ungrouped: one statement, no BEGIN and COMMIT.
				const results =
					batch.length === 1 ? [await this.db.write(batch[0].list)] : await this.together(batch);
				batch.forEach((item, i) => item.resolve(results[i]));
			} catch (error) {
				if (batch.length === 1 || lostConnection(error))
					batch.forEach((item) => item.reject(error));
				else
					for (const item of batch) await this.db.write(item.list).then(item.resolve, item.reject);
			}
		}
		this.flushing = false;
	}

	private together(batch: Pending[]): Promise<number[][]> {
		return this.db.tx(
			(function* () {
				const results: number[][] = [];
				for (const item of batch) results.push(yield* steps(item.list));
				return results;
			})(),
		);
	}
}
