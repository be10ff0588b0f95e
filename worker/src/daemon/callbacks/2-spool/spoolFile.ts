import { constants, type FileHandle, open, readdir, readFile, rm } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_MODE } from '../../../storage/privateFile';
import type { IntakeEvent } from '../../../storage/daemonStore';
import { isSameProcess, ownIdentity, type ProcessIdentity } from './processIdentity';

export interface SpoolEntry {
	key: string;
	event: IntakeEvent;
	receivedAt: number;
}

/**
 * The spool of this process is the one whose name carries its pid and the time it was
 * made, then, where the system gives one, the process's identity (its start since boot,
 * and the boot): `spool-<pid>-<ms>[-<start>-<boot>].jsonl`. A pid alone could be another
 * process's by the time the spool is looked at. Names without an identity (other systems,
 * earlier versions) are judged by the pid alone.
 */
const NAME = /^spool-(\d+)-(\d+)(?:-(\d+)-([0-9a-f]{32}))?\.jsonl$/;
const ZEROS = Buffer.alloc(64 * 1024);

/** Thrown when an entry does not fit: the spool is full, and the callback is answered 503. */
export class SpoolFull extends Error {}

/**
 * One worker process's append-only spool: callback events, one JSON line each, written
 * and fdatasync'ed before the caller answers 200. The file is written full of zeros when
 * it is opened, so its room is taken on the disk before anything needs it: a disk that
 * fills up later (the database's, say, when both are on it) cannot refuse an append. What
 * follows the last line is zeros; a reader stops there. Emptied (zeroed again from the
 * start) once everything in it is in the store.
 *
 * Every file operation goes through one chain, so appends and the emptying never overlap.
 */
export class SpoolFile {
	private used = 0;
	private chain: Promise<unknown> = Promise.resolve();
	private queued: { line: Buffer; resolve: () => void; reject: (error: unknown) => void }[] = [];
	private flushing = false;

	private constructor(
		readonly path: string,
		private readonly handle: FileHandle,
		readonly maxBytes: number,
	) {}

	/** Creates this process's spool file in `dir` (mode 0600), its room taken at once. */
	static async create(dir: string, maxBytes: number): Promise<SpoolFile> {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const identity = ownIdentity();
		const path = join(
			dir,
			`spool-${process.pid}-${Date.now()}${identity ? `-${identity.start}-${identity.boot}` : ''}.jsonl`,
		);
		const handle = await open(
			path,
			constants.O_CREAT | constants.O_EXCL | constants.O_RDWR,
			PRIVATE_MODE,
		);
		try {
			for (let at = 0; at < maxBytes; at += ZEROS.length)
				await handle.write(ZEROS, 0, Math.min(ZEROS.length, maxBytes - at), at);
			await handle.datasync();
			const dirHandle = await open(dir, 'r');
			await dirHandle.sync().finally(() => dirHandle.close());
		} catch (error) {
			await handle.close();
			await rm(path, { force: true });
			throw error;
		}
		return new SpoolFile(path, handle, maxBytes);
	}

	/** Bytes written and not yet emptied. */
	get size(): number {
		return this.used;
	}

	/**
	 * Appends one entry; resolves once it is on disk. Appends of one turn of the event loop
	 * share one write and one fdatasync.
	 */
	append(entry: SpoolEntry): Promise<void> {
		const line = Buffer.from(
			`${JSON.stringify({ k: entry.key, e: entry.event, t: entry.receivedAt })}\n`,
		);
		return new Promise((resolve, reject) => {
			this.queued.push({ line, resolve, reject });
			if (!this.flushing) {
				this.flushing = true;
				setImmediate(() => {
					this.flushing = false;
					const batch = this.queued;
					this.queued = [];
					this.run(() => this.write(batch));
				});
			}
		});
	}

	private async write(
		batch: { line: Buffer; resolve: () => void; reject: (error: unknown) => void }[],
	): Promise<void> {
		const fits: typeof batch = [];
		let bytes = 0;
		for (const item of batch) {
			if (this.used + bytes + item.line.length > this.maxBytes)
				item.reject(new SpoolFull(`the spool ${this.path} is full (${this.maxBytes} bytes)`));
			else {
				fits.push(item);
				bytes += item.line.length;
			}
		}
		if (fits.length === 0) return;
		try {
			await this.handle.write(Buffer.concat(fits.map((i) => i.line)), 0, bytes, this.used);
			await this.handle.datasync();
		} catch (error) {
			for (const item of fits) item.reject(error);
			return;
		}
		this.used += bytes;
		for (const item of fits) item.resolve();
	}

	/**
	 * Zeroes what was written, once every entry is in the store: `allFed` is asked when the
	 * turn comes, after any append queued before it. A crash halfway leaves entries that
	 * are fed again, harmlessly.
	 */
	empty(allFed: () => boolean): Promise<void> {
		return this.run(async () => {
			if (!allFed()) return;
			for (let at = 0; at < this.used; at += ZEROS.length)
				await this.handle.write(ZEROS, 0, Math.min(ZEROS.length, this.used - at), at);
			await this.handle.datasync();
			this.used = 0;
		});
	}

	/** Closes the file; removes it when nothing is left in it. */
	close(): Promise<void> {
		return this.run(async () => {
			await this.handle.close();
			if (this.used === 0) await rm(this.path, { force: true });
		});
	}

	private run<T>(work: () => Promise<T>): Promise<T> {
		const next = this.chain.then(work, work);
		this.chain = next.catch(() => undefined);
		return next;
	}
}

/** Spool files in `dir` left by processes that are gone (a crash, a reload's old copy that has exited). */
export async function orphanSpools(dir: string, own: string): Promise<string[]> {
	let names: string[];
	try {
		names = await readdir(dir);
	} catch {
		return [];
	}
	const out: { path: string; started: number }[] = [];
	for (const name of names) {
		const m = NAME.exec(name);
		const path = join(dir, name);
		if (!m || path === own) continue;
		const pid = Number(m[1]);
		// Our own pid on another file: a previous life of this process's pid (a container's pid 1).
		if (
			pid !== process.pid &&
			ownerAlive(pid, m[3] !== undefined ? { start: m[3], boot: m[4] } : undefined)
		)
			continue;
		out.push({ path, started: Number(m[2]) });
	}
	return out.sort((a, b) => a.started - b.started).map((o) => o.path);
}

/**
 * Whether the process that made a spool still runs. A live pid is not enough: after a
 * crash the system may give that pid to anything (a shell, another worker), and the dead
 * worker's callbacks would then wait for as long as that process lives.
 */
function ownerAlive(pid: number, identity: ProcessIdentity | undefined): boolean {
	const same = identity ? isSameProcess(pid, identity) : undefined;
	return same ?? pidAlive(pid);
}

function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The entries of a spool file, in the order they were written; a torn last line is skipped. */
export async function readSpool(path: string): Promise<SpoolEntry[]> {
	const text = (await readFile(path)).toString('utf8');
	const end = text.indexOf('\0');
	const out: SpoolEntry[] = [];
	for (const line of (end < 0 ? text : text.slice(0, end)).split('\n')) {
		if (line === '') continue;
		try {
			const raw = JSON.parse(line) as { k: string; e: IntakeEvent; t: number };
			out.push({ key: raw.k, event: raw.e, receivedAt: raw.t });
		} catch {
			// The line a crash cut off was never answered 200.
		}
	}
	return out;
}

export async function removeSpool(path: string): Promise<void> {
	await rm(path, { force: true });
}
