import type { EventStore, IntakeEvent } from '../../../storage/daemonStore';
import type { Logger } from '../../jsonLogger';
import { BackgroundLoop } from '../../../pacing/backgroundLoop';
import { orphanSpools, readSpool, removeSpool, type SpoolEntry, SpoolFile } from './spoolFile';

/** A store that has not answered by then is taken for down: the provider's retries are only ~1.5 s apart. */
const STORE_TIMEOUT_MS = 2_000;
const FEED_BATCH = 200;
/** Asking a store that is down costs one refused connection; the sooner it is seen back, the sooner the backlog drains. */
const RETRY = { baseMs: 100, maxMs: 500 };
/** While spooling, the log says how much the spool holds this often. */
const REPORT_EVERY_MS = 10_000;
/** Spools left by processes that are gone are looked for this often. */
const ORPHANS_EVERY_MS = 5_000;

/** What the callback processor tells the intake: passes that ended with nothing left to process. */
export interface ProcessorPasses {
	readonly passes: number;
	kick(storeAnswers?: boolean): void;
}

export interface IntakeState {
	/** The last write to the store failed or timed out, and it has not answered since. */
	storeDown: boolean;
	/** Events in the spool, not yet in the store. */
	spooled: number;
	spoolBytes: number;
	spoolMaxBytes: number;
	/** False when no spool could be made: a store that fails then means 503. */
	spoolWritable: boolean;
}

function timeout<T>(work: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	// A write that fails after its timeout must not be an unhandled rejection.
	work.catch(() => undefined);
	return Promise.race([
		work,
		new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`the store did not answer within ${ms} ms`)), ms);
		}),
	]).finally(() => clearTimeout(timer));
}

/**
 * Where a callback goes before it is answered: into the store, or, when the store cannot
 * take it (down, full, too slow), into this worker's spool file, synced, so the 200 is
 * still true. Once the spool holds something, every new callback joins it behind the
 * others, and the spool is fed into the store in arrival order as soon as the store
 * answers again; feeding is idempotent by event key (the store ignores a key it has), so
 * a crash halfway through only feeds some twice. Spools of processes that are gone are
 * fed the same way.
 *
 * Sending waits (see `sendingMayGo`) while anything spooled has not yet been processed: a
 * STOP that came in during an outage counts before the next message to its number.
 */
export class CallbackIntake {
	private unfed: SpoolEntry[] = [];
	private orphansWaiting = false;
	/** Feeds the spool into the store, one pass at a time, backing off while the store fails. */
	private readonly feeder = new BackgroundLoop({
		run: () => this.feedAll(),
		backoff: RETRY,
		failed: (error, failures) => {
			if (this.closed) return;
			if (failures === 0 && !this.storeDown)
				this.log.error('feeding the spool into the store failed; trying again', { error });
			this.storeDown = true;
		},
	});
	private storeDown = false;
	private spoolingSince: number | undefined;
	private spooledInOutage = 0;
	/** Sending may go once the processor has ended a pass that started after the last feed. */
	private passesBefore = -1;
	private reportTimer: NodeJS.Timeout | undefined;
	private orphanTimer: NodeJS.Timeout | undefined;
	private closed = false;
	private processor: ProcessorPasses | undefined;

	private constructor(
		private readonly store: EventStore,
		private readonly spool: SpoolFile | undefined,
		private readonly dir: string,
		private readonly log: Logger,
	) {
		this.feeder.start();
	}

	/**
	 * Makes this process's spool in `dir`. A spool that cannot be made is logged, and the
	 * worker runs without one: callbacks are then answered 503 while the store is down.
	 */
	static async open(
		store: EventStore,
		dir: string,
		maxBytes: number,
		log: Logger,
	): Promise<CallbackIntake> {
		let spool: SpoolFile | undefined;
		try {
			spool = await SpoolFile.create(dir, maxBytes);
		} catch (error) {
			log.error('no callback spool: callbacks will be refused (503) while the store is down', {
				dir,
				error: error as Error,
			});
		}
		const intake = new CallbackIntake(store, spool, dir, log);
		intake.orphansWaiting = (await orphanSpools(dir, spool?.path ?? '')).length > 0;
		return intake;
	}

	/** The processor that turns fed events into effects; the intake kicks it and watches its passes. */
	start(processor: ProcessorPasses): void {
		this.processor = processor;
		if (this.orphansWaiting) this.feed();
		this.orphanTimer = setInterval(() => this.lookForOrphans(), ORPHANS_EVERY_MS);
		this.orphanTimer.unref();
	}

	/** Feeds the spools of processes that are gone, if there are any. */
	lookForOrphans(): void {
		void orphanSpools(this.dir, this.spool?.path ?? '').then((found) => {
			if (found.length > 0 && !this.closed) {
				this.orphansWaiting = true;
				this.feed();
			}
		});
	}

	/** Durable when it resolves: in the store or in the spool. False for a callback the store already had. */
	async take(key: string, event: IntakeEvent, receivedAt: number): Promise<boolean> {
		if (this.unfed.length === 0) {
			try {
				const fresh = await timeout(
					this.store.recordEvent(key, event, receivedAt),
					STORE_TIMEOUT_MS,
				);
				this.storeDown = false;
				// The one place a new callback kicks the processor, whether stored here or fed from the spool.
				if (fresh) this.processor?.kick();
				return fresh;
			} catch (error) {
				if (!this.spool) throw error;
				this.startSpooling(error as Error);
			}
		}
		return this.spoolIt({ key, event, receivedAt });
	}

	/** True unless spooled events wait to be fed or processed. */
	sendingMayGo(): boolean {
		return (
			this.unfed.length === 0 &&
			!this.orphansWaiting &&
			(this.processor?.passes ?? 0) > this.passesBefore
		);
	}

	state(): IntakeState {
		return {
			storeDown: this.storeDown,
			spooled: this.unfed.length,
			spoolBytes: this.spool?.size ?? 0,
			spoolMaxBytes: this.spool?.maxBytes ?? 0,
			spoolWritable: this.spool !== undefined,
		};
	}

	/** Feeds what it can for up to `graceMs`; what is left stays in the spool file for the next start. */
	async close(graceMs = 5_000): Promise<void> {
		this.closed = true;
		if (this.orphanTimer) clearInterval(this.orphanTimer);
		// One more try now, a back-off notwithstanding, for what is still unfed.
		if (this.unfed.length > 0 || this.orphansWaiting) this.feeder.kick(true);
		await Promise.race([this.feeder.stop(), new Promise((r) => setTimeout(r, graceMs).unref())]);
		if (this.reportTimer) clearInterval(this.reportTimer);
		if (this.unfed.length > 0)
			this.log.warn('callbacks left in the spool; the next start feeds them into the store', {
				events: this.unfed.length,
				spool: this.spool?.path,
			});
		await this.spool?.close();
	}

	private startSpooling(error: Error): void {
		this.storeDown = true;
		this.passesBefore = Number.POSITIVE_INFINITY;
		if (this.spoolingSince !== undefined) return;
		this.spoolingSince = Date.now();
		this.spooledInOutage = 0;
		this.log.error('spooling callbacks: the store does not take them', {
			error,
			spool: this.spool?.path,
		});
		this.reportTimer = setInterval(
			() =>
				this.log.warn('spool holds callbacks', {
					events: this.unfed.length,
					bytes: this.spool?.size,
				}),
			REPORT_EVERY_MS,
		);
		this.reportTimer.unref();
	}

	private async spoolIt(entry: SpoolEntry): Promise<boolean> {
		// In line at once, so callbacks arriving meanwhile queue behind it, in arrival order.
		this.unfed.push(entry);
		this.spooledInOutage++;
		try {
			await this.spool!.append(entry);
		} catch (error) {
			this.unfed = this.unfed.filter((e) => e !== entry);
			this.spooledInOutage--;
			this.log.error('callback neither stored nor spooled; the provider will retry', {
				error: error as Error,
				spooled: this.unfed.length,
			});
			throw error;
		}
		this.feed();
		return true;
	}

	private feed(): void {
		if (!this.closed) this.feeder.kick();
	}

	private async feedAll(): Promise<void> {
		if (this.unfed.length === 0 && !this.orphansWaiting) return;
		if (this.orphansWaiting) await this.feedOrphans();
		while (this.unfed.length > 0) {
			const batch = this.unfed.slice(0, FEED_BATCH);
			await this.record(batch);
			const fed = new Set(batch);
			this.unfed = this.unfed.filter((e) => !fed.has(e));
			// Processed while the rest is fed: what is fed is stored in arrival order, and
			// anything arriving meanwhile waits in the spool behind it.
			this.processor?.kick(true);
		}
		this.storeDown = false;
		if (this.processor) {
			this.passesBefore = this.processor.passes;
			this.processor.kick(true);
		}
		if (this.spoolingSince !== undefined) {
			this.log.info('spooling ended: every spooled callback is in the store', {
				events: this.spooledInOutage,
				forMs: Date.now() - this.spoolingSince,
			});
			this.spoolingSince = undefined;
			if (this.reportTimer) clearInterval(this.reportTimer);
		}
		if (this.spool && this.spool.size > 0) await this.spool.empty(() => this.unfed.length === 0);
	}

	private async record(batch: SpoolEntry[]): Promise<void> {
		// Together: SQLite commits a turn's writes at once; on Postgres the pool takes them in parallel.
		await Promise.all(batch.map((e) => this.store.recordEvent(e.key, e.event, e.receivedAt)));
	}

	private async feedOrphans(): Promise<void> {
		for (const path of await orphanSpools(this.dir, this.spool?.path ?? '')) {
			const entries = await readSpool(path);
			for (let i = 0; i < entries.length; i += FEED_BATCH)
				await this.record(entries.slice(i, i + FEED_BATCH));
			await removeSpool(path);
			if (entries.length > 0)
				this.log.info('callbacks spooled by a process that is gone are in the store', {
					events: entries.length,
					spool: path,
				});
		}
		this.orphansWaiting = false;
	}
}
