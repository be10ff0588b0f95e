import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failuresByCountry } from '../../../../worker/src/rows/countryOfPrefix';
import { receiptPercentiles } from '../../../../worker/src/campaignReport/receiptPercentiles';
import { timeBucket } from '../../../../worker/src/campaignReport/timeBucket';

describe('report figures', () => {
	it('takes p50 and p95 from a histogram in tenths of a second, by nearest rank', () => {
		expect(receiptPercentiles([])).toBeUndefined();
		// 100 receipts: 50 at 0.3 s, 45 at 1.2 s, 5 at 9.9 s.
		expect(
			receiptPercentiles([
				{ tenths: 99, count: 5 },
				{ tenths: 3, count: 50 },
				{ tenths: 12, count: 45 },
			]),
		).toEqual({ p50: 0.3, p95: 1.2, receipts: 100 });
		expect(
			receiptPercentiles([
				{ tenths: 3, count: 50 },
				{ tenths: 12, count: 44 },
				{ tenths: 99, count: 6 },
			]),
		).toEqual({ p50: 0.3, p95: 9.9, receipts: 100 });
	});

	it('picks the narrowest easy bucket that keeps a span within 60 buckets', () => {
		expect(timeBucket(0)).toBe(1);
		expect(timeBucket(59)).toBe(1);
		expect(timeBucket(60)).toBe(5);
		expect(timeBucket(2 * 3600)).toBe(300);
		expect(timeBucket(30 * 86_400)).toBe(86_400);
		expect(timeBucket(10 * 365 * 86_400)).toBe(90 * 86_400);
		expect(timeBucket(100 * 365 * 86_400)).toBe(2 * 365 * 86_400);
	});

	// The README's promise: at most 60 buckets, whatever the span and wherever it starts
	// (the ledger groups by `at / width * width`, so a span rarely starts on a boundary).
	it('never needs more than 60 buckets, for any span from any start', () => {
		const buckets = (from: number, to: number, width: number) =>
			Math.floor(to / width) - Math.floor(from / width) + 1;
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 4_000_000_000 }),
				fc.integer({ min: 0, max: 300 * 365 * 86_400 }),
				(from, span) => {
					expect(buckets(from, from + span, timeBucket(span))).toBeLessThanOrEqual(60);
				},
			),
			{ numRuns: 5000 },
		);
		// Worst placements: a span just inside a width's limit, starting a second before a boundary.
		for (const width of [1, 5, 300, 86_400, 7 * 86_400, 90 * 86_400, 365 * 86_400]) {
			const span = 59 * width;
			expect(timeBucket(span)).toBe(width);
			expect(buckets(width - 1, width - 1 + span, width)).toBe(60);
			expect(timeBucket(span + 1)).toBeGreaterThan(width);
		}
	});

	it('names the country of each group of numbers and adds up groups of the same country', () => {
		expect(
			failuresByCountry([
				{ sample: '+61491570666', count: 3 },
				{ sample: '+14155550100', count: 2 },
				{ sample: '+16135550100', count: 1 },
				{ sample: '+61412345678', count: 1 },
				{ sample: '+999', count: 1 },
			]),
		).toEqual([
			{ country: 'AU', count: 4 },
			{ country: 'US', count: 2 },
			{ country: 'CA', count: 1 },
			{ country: 'unknown', count: 1 },
		]);
	});
});
