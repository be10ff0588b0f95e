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
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
	const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (value === undefined || value.trim() === '') return undefined;
	if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
