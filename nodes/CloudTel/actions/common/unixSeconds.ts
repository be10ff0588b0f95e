/** Offset of `timeZone` from UTC at the instant `utcMs`, in milliseconds. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const wall = Date.UTC(
		get('year'),
		get('month') - 1,
		get('day'),
		get('hour'),
		get('minute'),
		get('second'),
	);
	return wall - Math.floor(utcMs / 1000) * 1000;
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

/** n8n's date picker gives wall time without a zone: it means the workflow's time zone. */
function wallTimeToUtcMs(text: string, timeZone: string): number | undefined {
	const m = WALL_TIME.exec(text);
	if (!m) return undefined;
	const guess = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
	const first = guess - zoneOffsetMs(guess, timeZone);
	return guess - zoneOffsetMs(first, timeZone);
}

/**
 * Reads a dateTime parameter (an ISO string, with or without zone, a JS Date, a Luxon
 * DateTime from an expression, or Unix seconds or milliseconds) as Unix seconds.
 */
export function toUnixSeconds(value: unknown, timeZone: string): number | undefined {
	if (typeof value === 'number')
		return Number.isFinite(value) ? Math.floor(value > 1e11 ? value / 1000 : value) : undefined;
	if (value instanceof Date)
		return Number.isNaN(value.getTime()) ? undefined : Math.floor(value.getTime() / 1000);
	if (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	) {
		return Math.floor((value as { toMillis(): number }).toMillis() / 1000);
	}
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	if (/^\d+$/.test(text)) return toUnixSeconds(Number(text), timeZone);
	const ms = wallTimeToUtcMs(text, timeZone) ?? Date.parse(text);
	return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
