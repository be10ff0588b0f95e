const UNIT_MS: Record<string, number> = {
	ms: 1,
	s: 1_000,
	m: 60_000,
	h: 3_600_000,
	d: 86_400_000,
};

/** `90s`, `30m`, `12h`, `3d`, `500ms` in milliseconds; undefined for anything else. */
export function durationMs(text: string): number | undefined {
	const m = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
	return m ? Number(m[1]) * UNIT_MS[m[2]] : undefined;
}
