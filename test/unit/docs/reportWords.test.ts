import { describe, expect, it } from 'vitest';
import { reportWords } from '../../integration/docs/reportScreenshot';

describe("the report screenshot's words", () => {
	it('are the same whatever a figure reads on the day (1 s in one run, 1.2 s or 1,200 in the next)', () => {
		const page = (p99: string, rows: string) =>
			`Campaign spring\nSend to receipt, p99 (s)\n${p99}\nRows ${rows} sent on Sat 28 Nov`;
		expect(reportWords(page('1', '12'))).toBe(reportWords(page('1.2', '1,200')));
		expect(reportWords(page('0.75', '3'))).toBe(
			'Campaign spring\nSend to receipt, p# (s)\n#\nRows # sent on Day # Mon\n',
		);
	});

	it('differ when a heading or label changes', () => {
		expect(reportWords('Send to receipt, p99 (s)\n1')).not.toBe(
			reportWords('Send to answer, p99 (s)\n1'),
		);
	});
});
