const formats = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-25 09:00 GMT+11`: a time as a person in that zone reads it, with its offset. */
export function localTime(unixSeconds: number, iana = 'UTC'): string {
	let f = formats.get(iana);
	if (!f) {
		f = new Intl.DateTimeFormat('en-CA', {
			timeZone: iana,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
			timeZoneName: 'shortOffset',
		});
		formats.set(iana, f);
	}
	const p = Object.fromEntries(
		f.formatToParts(new Date(unixSeconds * 1000)).map((x) => [x.type, x.value]),
	);
	const zone = /^GMT([+-]0)?$/.test(p.timeZoneName ?? '')
		? 'UTC'
		: (p.timeZoneName ?? '').replace(/^GMT/, 'UTC');
	return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${zone}`;
}
