import { backoffDelay, type BackoffPolicy } from './backoff';

/** What a pass asks for besides a kick: another pass after `waitMs` (work due later, a peer busy). */
export interface LoopPass {
	waitMs: number;
}

export interface LoopOptions {
	/** One pass of the work; a throw (the store down, say) backs the loop off. */
	run: () => Promise<LoopPass | void>;
	backoff: Pick<BackoffPolicy, 'baseMs' | 'maxMs'>;
	/** A pass threw; `failures` before it in a row, `delayMs` until the next pass. */
	failed?: (error: Error, failures: number, delayMs: number) => void;
	/** A pass went through after `failures` that threw. */
	recovered?: (failures: number) => void;
	random?: () => number;
}

/**
 * A background pass run on demand (kick), never two at once: a kick during a pass runs one
 * more after it, and a pass that throws is tried again after a growing back-off
 * (pacing/backoff), which a kick does not cut short unless it says the cause is gone.
 */
export class BackgroundLoop {
	private started = false;
	private stopped = false;
	private running: Promise<void> | undefined;
	/** A kick came during the pass in hand: undefined none, else whether it was `now`. */
	private pending: boolean | undefined;
	private timer: NodeJS.Timeout | undefined;
	private failures = 0;

	constructor(private readonly options: LoopOptions) {}

	/** Kicks before this are not acted on. */
	start(): void {
		this.started = true;
	}

	/** `now`: the cause of a back-off or a wait is known to be gone, so neither holds this kick. */
	kick(now = false): void {
		if (!this.started || this.stopped) return;
		if (this.running) {
			this.pending = (this.pending ?? false) || now;
			return;
		}
		if (this.timer) {
			if (!now) return;
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		this.running = this.pass();
	}

	/** For a pass that loops itself: true (once) when it was kicked since it began or last asked. */
	takeKick(): boolean {
		const kicked = this.pending !== undefined;
		this.pending = undefined;
		return kicked;
	}

	/** Resolves once no pass is under way (one may be waiting on a back-off). */
	async idle(): Promise<void> {
		while (this.running) await this.running;
	}

	/** Runs no further pass; waits for the one in hand. */
	async stop(): Promise<void> {
		this.stopped = true;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		await this.idle();
	}

	private async pass(): Promise<void> {
		let waitMs: number | undefined;
		try {
			waitMs = (await this.options.run())?.waitMs;
			if (this.failures > 0) this.options.recovered?.(this.failures);
			this.failures = 0;
		} catch (error) {
			waitMs = backoffDelay(this.failures + 1, this.options.backoff, this.options.random);
			this.options.failed?.(error as Error, this.failures, waitMs);
			this.failures++;
		}
		this.running = undefined;
		if (waitMs !== undefined && !this.stopped) {
			this.timer = setTimeout(() => {
				this.timer = undefined;
				this.kick();
			}, waitMs);
			this.timer.unref();
		}
		const pending = this.pending;
		this.pending = undefined;
		if (pending !== undefined) this.kick(pending);
	}
}
