import type { VariantTally } from '../storage/variantStore';

/**
 * A variant's clicks: undefined ("not tracked") until link tracking (#41) stores them. The
 * one place that measure is read; wire the ledger's click count of the variant's rows here.
 */
export const variantClicks: (campaign: string, tally: VariantTally) => number | undefined = () =>
	undefined;
