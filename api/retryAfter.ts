/**
 * A 429's Retry-After (contract.md): delta seconds or an HTTP date, as milliseconds to
 * wait; undefined when absent or unreadable. Fractions round up, so a client never comes
 * back before the provider said it may.
 */
export function retryAfterMs(header: unknown, now: number = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
