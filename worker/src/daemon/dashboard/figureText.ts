/** A count and its share of the sent rows, as the page shows it (and /dashboard.js again). */
export function countAndRate(count: number, of: number): string {
	const n = count.toLocaleString('en-US');
	return of > 0 ? `${n} (${((100 * count) / of).toFixed(1)}%)` : n;
}

export function when(isoTime: string | undefined): string {
	return isoTime === undefined ? '–' : isoTime.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
}
