import { ianaForWindowsTimeZone } from '../../../api';

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatter(iana: string): Intl.DateTimeFormat | null {
	let f = formatters.get(iana);
	if (f === undefined) {
		try {
			f = new Intl.DateTimeFormat('en-GB', {
				timeZone: iana,
				hourCycle: 'h23',
				hour: '2-digit',
				minute: '2-digit',
				second: '2-digit',
			});
		} catch {
			f = null;
		}
		formatters.set(iana, f);
	}
	return f;
}

/**
 * The IANA zone for a Windows ID (what the property's TimeZone holds) or an IANA name.
 * Undefined when it is neither.
 */
export function resolveTimeZone(value: string): string | undefined {
	const name = value.trim();
	if (name === '') return undefined;
	const fromWindows = ianaForWindowsTimeZone(name);
	if (fromWindows) return fromWindows;
	const f = formatter(name);
	return f ? f.resolvedOptions().timeZone : undefined;
}

/** Seconds since local midnight in that zone at the instant `unixSeconds`. */
export function localSecondOfDay(unixSeconds: number, iana: string): number {
	const f = formatter(iana);
	if (!f) throw new Error(`unknown time zone ${iana}`);
	let h = 0;
	let m = 0;
	let s = 0;
	for (const p of f.formatToParts(new Date(unixSeconds * 1000))) {
		if (p.type === 'hour') h = Number(p.value);
		else if (p.type === 'minute') m = Number(p.value);
		else if (p.type === 'second') s = Number(p.value);
	}
	return h * 3600 + m * 60 + s;
}
