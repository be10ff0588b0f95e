export interface BackoffPolicy {
	baseMs: number;
	maxMs: number;
	/** Attempts in all, the first included. */
	maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 30_000, maxAttempts: 8 };

/**
 * Exponential back-off with full jitter: senders that failed together do not all come back
 * at the same moment.
 */
export function backoffDelay(
	attempt: number,
	policy: Pick<BackoffPolicy, 'baseMs' | 'maxMs'>,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
