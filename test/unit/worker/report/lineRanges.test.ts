import { describe, expect, it } from 'vitest';
import { lineRanges } from '../../../../worker/src/report/lineRanges';

describe('line ranges', () => {
	it('joins runs of lines, in order, whatever order they come in', () => {
		expect(lineRanges([57, 12, 13, 14, 40, 15])).toBe('12-15, 40, 57');
		expect(lineRanges([])).toBe('');
		expect(lineRanges([3])).toBe('3');
	});
	it('keeps 4,000 uncertain rows in chunks of 100 to a short line', () => {
		const lines = Array.from({ length: 4000 }, (_, i) => 2 + i + Math.floor(i / 100) * 50);
		const text = lineRanges(lines);
		expect(text.split(', ')).toHaveLength(40);
		expect(text.startsWith('2-101, 152-251')).toBe(true);
	});
});
