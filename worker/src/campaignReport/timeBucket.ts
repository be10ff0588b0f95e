const DAY = 86_400;

/** Bucket widths a person reads easily, in seconds: up to a year, then whole years. */
const WIDTHS = [
	1,
	5,
	10,
	30,
	60,
	300,
	900,
	1800,
	3600,
	3 * 3600,
	6 * 3600,
	12 * 3600,
	DAY,
	7 * DAY,
	30 * DAY,
	90 * DAY,
	365 * DAY,
];

/**
 * The narrowest easy width that cuts the span into at most `most` buckets. Buckets start
 * at multiples of their width (the ledger groups by `at / width * width`), so a span
 * needs up to one bucket more than its length in widths: it must fit in `most - 1` widths.
 */
export function timeBucket(spanSeconds: number, most = 60): number {
	const fits = (w: number) => spanSeconds <= (most - 1) * w;
	const easy = WIDTHS.find(fits);
	if (easy !== undefined) return easy;
	const year = 365 * DAY;
	return Math.ceil(spanSeconds / ((most - 1) * year)) * year;
}
