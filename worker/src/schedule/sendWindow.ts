import { localSecondOfDay } from './timeZone';

/** Local times of day, in seconds since midnight; `end` before `start` spans midnight. */
export interface SendWindow {
	start: number;
	end: number;
}

const DAY = 86_400;

/** `HH:MM-HH:MM`; equal ends are refused, since they mean either never or always. */
export function parseSendWindow(value: string): SendWindow {
	const m = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(value);
	if (!m) throw new Error(`must look like 09:00-20:00 (got "${value}")`);
	const [h1, m1, h2, m2] = m.slice(1).map(Number);
	if (h1 > 24 || h2 > 24 || m1 > 59 || m2 > 59 || (h1 === 24 && m1 > 0) || (h2 === 24 && m2 > 0)) {
		throw new Error(`has a time of day that does not exist ("${value}")`);
	}
	const start = (h1 * 3600 + m1 * 60) % DAY;
	const end = (h2 * 3600 + m2 * 60) % DAY;
	if (start === end) throw new Error(`must have two different ends ("${value}")`);
	return { start, end };
}

export function insideWindow(secondOfDay: number, w: SendWindow): boolean {
	return w.start < w.end
		? secondOfDay >= w.start && secondOfDay < w.end
		: secondOfDay >= w.start || secondOfDay < w.end;
}

/**
 * The first instant at or after `from` (Unix seconds) that falls inside the window in
 * that zone. A daylight-saving jump moves the wall clock under us, so the guess is
 * checked and corrected until the local time agrees.
 */
export function nextWindowOpening(from: number, w: SendWindow, iana: string): number {
	const local = localSecondOfDay(from, iana);
	if (insideWindow(local, w)) return from;
	let t = from + ((w.start - local + DAY) % DAY);
	for (let i = 0; i < 3; i++) {
		const here = localSecondOfDay(t, iana);
		if (insideWindow(here, w)) {
			// Landed past the opening because the offset changed on the way: step back to it.
			const back = (here - w.start + DAY) % DAY;
			if (back > 0 && t - back >= from && localSecondOfDay(t - back, iana) === w.start)
				return t - back;
			return t;
		}
		t += (w.start - here + DAY) % DAY;
	}
	return t;
}
