const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** How every duration is given (`--decide-after`, `decideAfter`, `catchUp`, `links.ttl`, `events.maxAge`, `--since`). */
export const DURATION_EXAMPLES = '2h, 30m, 90s, 1.5d or 500ms';

/**
 * A duration in milliseconds, or undefined when the text is not one. The one grammar: a
 * number (decimals allowed), then optionally `ms`, `s`, `m`, `h` or `d`, with spaces around
 * either; no unit means seconds. Anything else (a sign, an exponent, `2H`, `1h30m`) is none.
 */
export function durationMs(text: string): number | undefined {
	const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
	return m ? Number(m[1]) * UNIT_MS[m[2] ?? 's'] : undefined;
}
