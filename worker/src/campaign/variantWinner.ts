import type { WinnerBy } from '../settings/campaignSpec';
import type { VariantTally } from '../storage/variantStore';

/** The measure's rate of one variant among its sent rows; null when none was sent. */
export function variantRate(t: VariantTally, by: WinnerBy): number | null {
	if (t.sent === 0) return null;
	const count =
		by === 'delivered'
			? t.delivered
			: by === 'replies'
				? t.replies
				: by === 'optouts'
					? t.optOuts
					: t.clicks;
	return count / t.sent;
}

/**
 * The rates of variants 1..count, and the winner: the best rate (the fewest opt-outs),
 * the first given on a tie; a variant nothing of which was sent cannot win unless none was.
 */
export function pickWinner(
	tallies: VariantTally[],
	count: number,
	by: WinnerBy,
): { winner: number; rates: (number | null)[] } {
	const rates = Array.from({ length: count }, (_, i) => {
		const t = tallies.find((x) => x.variant === i + 1);
		return t ? variantRate(t, by) : null;
	});
	let winner = 1;
	let best: number | null = null;
	rates.forEach((rate, i) => {
		if (rate === null) return;
		const better = best === null || (by === 'optouts' ? rate < best : rate > best);
		if (better) {
			best = rate;
			winner = i + 1;
		}
	});
	return { winner, rates };
}
