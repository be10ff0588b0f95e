/**
 * The slowest pace a campaign may be given, in messages a second (one every 100 s): slower
 * ones were typos (`1e-7`) that made a run wait for months, on a timer Node cannot hold.
 * 0 is no limit.
 */
export const MIN_CAMPAIGN_RATE = 0.01;
export const MAX_CAMPAIGN_RATE = 1_000_000;

/** Why a campaign's rate cannot be used (to follow the setting's name), or undefined: the CLI, the config and the API say the same. */
export function campaignRateProblem(rate: number): string | undefined {
	if (
		Number.isFinite(rate) &&
		(rate === 0 || (rate >= MIN_CAMPAIGN_RATE && rate <= MAX_CAMPAIGN_RATE))
	)
		return undefined;
	return `must be 0 (no limit) or from ${MIN_CAMPAIGN_RATE} to ${MAX_CAMPAIGN_RATE.toLocaleString('en-US')} messages a second`;
}

/** The largest price of one segment a cost is worked out for: past it (1e308, say) the cost is Infinity, shown as null. */
export const MAX_PRICE_PER_SEGMENT = 1_000_000;
