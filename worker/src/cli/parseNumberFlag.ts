import { campaignRateProblem, MAX_PRICE_PER_SEGMENT } from '../../../api';
import { RUN_DEFAULTS, UsageError } from '../errors';

export function parseNumberFlag(flag: string, value: string | undefined, fallback: number): number {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (value.trim() === '' || !Number.isFinite(n) || n < 0)
		throw new UsageError(`${flag} must be a number, 0 or more (got "${value}")`);
	return n;
}

/** `--rate`: messages a second, 0 for no limit, never slower than the API and the config allow. */
export function parseRateFlag(value: string | undefined): number {
	const rate = parseNumberFlag('--rate', value, RUN_DEFAULTS.rate);
	const problem = campaignRateProblem(rate);
	if (problem) throw new UsageError(`--rate ${problem} (got "${value}")`);
	return rate;
}

/** `--price-per-segment`, for the cost. */
export function parsePrice(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	// A price past the cap would make the cost Infinity (shown as null): refused like a typo.
	if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > MAX_PRICE_PER_SEGMENT)
		throw new UsageError(
			`--price-per-segment must be a number from 0 to ${MAX_PRICE_PER_SEGMENT.toLocaleString('en-US')}, such as 0.045 (got "${value}")`,
		);
	return n;
}

/** `--max-cost`: the campaign's spend cap, in the unit of --price-per-segment. */
export function parseMaxCost(value: string | undefined, flag = '--max-cost'): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (value.trim() === '' || !Number.isFinite(n) || n < 0)
		throw new UsageError(
			`${flag} must be an amount, 0 or more, in the unit of --price-per-segment, such as 25 (got "${value}")`,
		);
	return n;
}

/** `--max-failure-rate`: a fraction of the latest delivery outcomes; 0 turns the brake off. */
export function parseFailureRate(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (value.trim() === '' || !(n >= 0 && n <= 1))
		throw new UsageError(
			`--max-failure-rate must be a fraction from 0 to 1, such as 0.3 (0 turns the brake off) (got "${value}")`,
		);
	return n;
}

/** `--currency`: the price's unit as the report shows it, a code (AUD) or a symbol ($). */
export function parseCurrency(value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	if (!/^\S{1,8}$/u.test(value))
		throw new UsageError(
			`--currency must be a code such as AUD or a symbol such as $, at most 8 characters without spaces (got "${value}")`,
		);
	return value;
}
