import { retryAfterMs } from '../../../api';

/** How many times a 429 is retried before the error is returned to the user. */
export const MAX_RATE_LIMIT_RETRIES = 5;

const MAX_WAIT_MS = 60_000;

/**
 * The wait before retry number `attempt` (0-based): Retry-After when the provider sent
 * one (seconds or an HTTP date), otherwise exponential back-off from one second. Capped
 * so a bad header cannot park a workflow for hours.
 */
export function retryDelayMs(retryAfter: unknown, attempt: number, now = Date.now()): number {
	return Math.min(retryAfterMs(retryAfter, now) ?? 1000 * 2 ** attempt, MAX_WAIT_MS);
}
