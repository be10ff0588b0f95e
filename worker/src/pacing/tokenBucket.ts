/**
 * Tokens are messages. The bucket holds at most one chunk, so a pause never turns into a
 * burst the provider would answer with 429.
 */
export class TokenBucket {
	private tokens: number;
	private last: number;
	private blockedUntil = 0;

	constructor(
		/** Messages per second; 0 or Infinity means no limit. */
		readonly rate: number,
		readonly capacity: number,
		private readonly clock: () => number = () => performance.now(),
	) {
		this.tokens = capacity;
		this.last = clock();
	}

	get unlimited(): boolean {
		return !(this.rate > 0 && Number.isFinite(this.rate));
	}

	private refill(now: number): void {
		if (now > this.last) {
			this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) * this.rate) / 1000);
			this.last = now;
		}
	}

	/** Milliseconds to wait before `n` tokens are there; 0 means take them now. */
	delayFor(n: number): number {
		const now = this.clock();
		const blocked = Math.max(0, this.blockedUntil - now);
		if (this.unlimited) return blocked;
		this.refill(now);
		const need = Math.min(n, this.capacity);
		const short = need - this.tokens;
		return Math.max(blocked, short <= 0 ? 0 : Math.ceil((short * 1000) / this.rate));
	}

	/** Takes `n` tokens if they are there; a chunk larger than the bucket empties it. */
	tryTake(n: number): boolean {
		if (this.delayFor(n) > 0) return false;
		if (!this.unlimited) this.tokens -= Math.min(n, this.capacity);
		return true;
	}

	/** Waits for `n` tokens and takes them; false, taking none, once `stopped` says so (a stop, a cancel): its sleeps end early then, and looping on would spin. */
	async take(
		n: number,
		sleep: (ms: number) => Promise<void>,
		stopped: () => boolean = () => false,
	): Promise<boolean> {
		for (;;) {
			if (stopped()) return false;
			const wait = this.delayFor(n);
			if (wait <= 0 && this.tryTake(n)) return true;
			await sleep(Math.max(1, wait));
		}
	}

	/**
	 * A 429 means the account as a whole is over its limit: every sender waits, and the
	 * bucket starts again empty so the first request after the pause is not a burst.
	 */
	block(ms: number): void {
		const now = this.clock();
		this.blockedUntil = Math.max(this.blockedUntil, now + ms);
		this.tokens = 0;
		this.last = Math.max(this.last, this.blockedUntil);
	}
}
