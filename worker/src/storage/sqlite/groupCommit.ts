import type Database from 'better-sqlite3';
import type { WalSync } from './walSync';

interface Pending {
	write: () => unknown;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
}

/**
 * Writes gathered into one transaction per turn of the event loop. In WAL mode every
 * commit appends each page it touched, so a thousand one-row commits wrote some twelve
 * megabytes, and the checkpoints that followed, for what fits in a few pages. Each write
 * keeps its own savepoint, so one that fails takes no other down with it.
 *
 * Given a WalSync, the writes are also durable before they resolve: the transaction
 * commits without an fsync and the WAL is then synced off the event loop, several
 * transactions sharing one fsync when they come faster than the disk.
 */
export class GroupCommit {
	private queue: Pending[] = [];
	private scheduled = false;
	/** Transactions so far. */
	commits = 0;

	constructor(
		private readonly db: Database.Database,
		private readonly durable?: WalSync,
	) {}

	run<T>(write: () => T): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
			if (!this.scheduled) {
				this.scheduled = true;
				setImmediate(() => this.flush());
			}
		});
	}

	private flush(): void {
		this.scheduled = false;
		const batch = this.queue;
		this.queue = [];
		// Each write's outcome, told once the batch is committed (and synced, given a WalSync).
		const outcomes: (() => void)[] = [];
		try {
			this.db.transaction(() => {
				for (const item of batch) {
					try {
						const value = this.db.transaction(item.write)();
						outcomes.push(() => item.resolve(value));
					} catch (error) {
						outcomes.push(() => item.reject(error));
					}
				}
			})();
			this.commits++;
		} catch (error) {
			// The commit itself failed: nothing of the batch is written.
			for (const item of batch) item.reject(error);
			return;
		}
		const settle = () => outcomes.forEach((tell) => tell());
		if (!this.durable) settle();
		else
			this.durable
				.sync()
				.then(settle, (error: unknown) => batch.forEach((item) => item.reject(error)));
	}
}
