/** How many times a 429 is retried before the error is returned to the user. */
export const MAX_RATE_LIMIT_RETRIES = 5;

const MAX_WAIT_MS = 60_000;

/**
 * The wait before retry number `attempt` (0-based): Retry-After when the provider sent
 * one (seconds or an HTTP date), otherwise exponential back-off from one second. Capped
 * so a bad header cannot park a workflow for hours.
 */
export function retryDelayMs(retryAfter: unknown, attempt: number, now = Date.now()): number {
	const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
	if (typeof header === 'string' || typeof header === 'number') {
		const text = String(header).trim();
		if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Math.ceil(Number(text) * 1000), MAX_WAIT_MS);
		const date = Date.parse(text);
		if (!Number.isNaN(date)) return Math.min(Math.max(date - now, 0), MAX_WAIT_MS);
	}
	return Math.min(1000 * 2 ** attempt, MAX_WAIT_MS);
}
