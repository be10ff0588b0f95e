import type Database from 'better-sqlite3';

interface Pending {
	write: () => unknown;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
}

/**
 * Writes that must be on disk before they return, gathered into one synced transaction
 * per turn of the event loop. An fsync costs milliseconds and blocks the loop; under a
 * burst of callbacks one of them now serves the whole burst. Each write keeps its own
 * savepoint, so one that fails takes no other down with it.
 */
export class GroupCommit {
	private queue: Pending[] = [];
	private scheduled = false;

	constructor(private readonly db: Database.Database) {}

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
		const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
		try {
			this.db.pragma('synchronous = FULL');
			this.db.transaction(() => {
				for (const item of batch) {
					try {
						results.push({ ok: true, value: this.db.transaction(item.write)() });
					} catch (error) {
						results.push({ ok: false, error });
					}
				}
			})();
		} catch (error) {
			// The commit itself failed: nothing of the batch is on disk.
			for (const item of batch) item.reject(error);
			return;
		} finally {
			if (this.db.open) this.db.pragma('synchronous = NORMAL');
		}
		batch.forEach((item, i) => {
			const r = results[i];
			if (r.ok) item.resolve(r.value);
			else item.reject(r.error);
		});
	}
}
