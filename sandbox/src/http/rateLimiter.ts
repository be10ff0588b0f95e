/**
 * Messages per second per account, as a token bucket holding one second's worth. A
 * request needing more tokens than are left is refused whole, with the seconds until
 * enough have refilled as Retry-After. A batch larger than the bucket passes when the
 * bucket is full and leaves it in debt, so the average rate still holds.
 */
export class RateLimiter {
	private readonly buckets = new Map<string, { tokens: number; at: number }>();

	constructor(
		private readonly perSecond: number,
		private readonly nowMs: () => number = Date.now,
	) {}

	get enabled(): boolean {
		return this.perSecond > 0;
	}

	/** Takes `count` tokens, or returns the Retry-After seconds when it cannot. */
	take(key: string, count: number): number | undefined {
		if (!this.enabled) return undefined;
		const now = this.nowMs();
		const bucket = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
		bucket.tokens = Math.min(
			this.perSecond,
			bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond,
		);
		bucket.at = now;
		this.buckets.set(key, bucket);
		const needed = Math.min(count, this.perSecond);
		if (needed <= bucket.tokens + 1e-9) {
			bucket.tokens -= count;
			return undefined;
		}
		const missing = needed - bucket.tokens;
		return Math.max(1, Math.ceil(missing / this.perSecond));
	}
}
