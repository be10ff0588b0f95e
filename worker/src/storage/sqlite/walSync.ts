import { close, closeSync, fdatasync, fsyncSync, open, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes what a WAL-mode SQLite file has committed durable, on libuv's thread pool rather
 * than the event loop. With `synchronous = FULL` SQLite calls fsync inside the commit, and
 * better-sqlite3 being synchronous, the daemon's one thread stood still for every one: on a
 * busy disk a thousand callbacks spent half a second there, answering nobody.
 *
 * Why this is the same promise: a commit appends its frames to the WAL file; fdatasync on
 * that file, from any descriptor, writes them to disk. Frames a checkpoint has since
 * copied into the database file are already synced by SQLite itself (in WAL mode, NORMAL
 * syncs the WAL before each checkpoint and the database after it). Callers sharing one
 * fsync: one that arrives while an fsync is under way waits for the next, since the one
 * under way may have started before its commit.
 */
export class WalSync {
	private inflight: Promise<void> | undefined;
	private next: Promise<void> | undefined;
	private fd: Promise<number> | undefined;
	/** fsyncs so far. */
	syncs = 0;

	constructor(private readonly databasePath: string) {
		// Once: the directory entry of the WAL file, which no commit's fsync covers.
		const dir = openSync(dirname(databasePath), 'r');
		try {
			fsyncSync(dir);
		} finally {
			closeSync(dir);
		}
	}

	/** Resolves once every commit made before the call is on disk. */
	sync(): Promise<void> {
		if (!this.inflight) {
			this.inflight = this.fsync().finally(() => (this.inflight = undefined));
			return this.inflight;
		}
		this.next ??= this.inflight
			.catch(() => undefined)
			.then(() => {
				this.next = undefined;
				return this.sync();
			});
		return this.next;
	}

	private async fsync(): Promise<void> {
		this.syncs++;
		// The WAL file lives as long as a connection to the database is open: one descriptor
		// serves every sync. One that fails is dropped, and the next sync opens the file anew.
		const fd = (this.fd ??= new Promise<number>((resolve, reject) =>
			open(`${this.databasePath}-wal`, 'r', (error, fd) => (error ? reject(error) : resolve(fd))),
		));
		try {
			const opened = await fd;
			await new Promise<void>((resolve, reject) =>
				fdatasync(opened, (error) => (error ? reject(error) : resolve())),
			);
		} catch (error) {
			if (this.fd === fd) this.fd = undefined;
			fd.then(
				(opened) => close(opened, () => undefined),
				() => undefined,
			);
			throw error;
		}
	}

	/** Lets go of the WAL file's descriptor. */
	close(): void {
		const fd = this.fd;
		this.fd = undefined;
		fd?.then(
			(opened) => closeSync(opened),
			() => undefined,
		);
	}
}
