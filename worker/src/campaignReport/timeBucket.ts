/** Bucket widths a person reads easily, in seconds. */
const WIDTHS = [1, 5, 10, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 7 * 86_400];

/** The narrowest easy width that cuts the span into at most `most` buckets. */
export function timeBucket(spanSeconds: number, most = 60): number {
	return WIDTHS.find((w) => spanSeconds / w < most) ?? WIDTHS[WIDTHS.length - 1];
}
