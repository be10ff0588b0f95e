/**
 * The p50 and p95 of the time from send to receipt, in seconds, from a histogram in tenths
 * of a second (the ledger counts; nothing is read row by row). Nearest rank: the smallest
 * time at or below which that share of the receipts falls.
 */
export function receiptPercentiles(
	histogram: { tenths: number; count: number }[],
): { p50: number; p95: number; receipts: number } | undefined {
	const total = histogram.reduce((n, b) => n + b.count, 0);
	if (total === 0) return undefined;
	const sorted = [...histogram].sort((x, y) => x.tenths - y.tenths);
	const at = (q: number) => {
		const rank = Math.ceil(q * total);
		let seen = 0;
		for (const b of sorted) {
			seen += b.count;
			if (seen >= rank) return b.tenths / 10;
		}
		return sorted[sorted.length - 1].tenths / 10;
	};
	return { p50: at(0.5), p95: at(0.95), receipts: total };
}
