/** A frequency cap: at most `count` messages to one number within `periodMs`, across campaigns. */
export interface FrequencyCap {
	count: number;
	periodMs: number;
}

const PERIOD_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
/** `1/24h`, `3/7d`, `2/30m`: the same periods as the worker's other settings. */
const CAP = /^\s*(\d+)\s*\/\s*(\d+)\s*([mhd])\s*$/;
/** The sends the worker looks back on per number, at most. */
export const MAX_FREQUENCY_COUNT = 1000;

/** The cap, or why `text` is not one (for a message naming the flag or field). */
export function parseFrequencyCap(text: string): FrequencyCap | string {
	const m = CAP.exec(text);
	if (!m) return `must be N/PERIOD such as 1/24h or 3/7d (got "${text}")`;
	const count = Number(m[1]);
	const periodMs = Number(m[2]) * PERIOD_MS[m[3]];
	if (count < 1 || count > MAX_FREQUENCY_COUNT)
		return `must allow 1 to ${MAX_FREQUENCY_COUNT} messages a period (got "${text}")`;
	if (periodMs <= 0) return `must have a period above 0 (got "${text}")`;
	return { count, periodMs };
}
