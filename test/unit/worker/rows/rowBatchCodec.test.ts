import { describe, expect, it } from 'vitest';
import {
	decodeRows,
	decodeVerdicts,
	encodeRows,
	encodeVerdicts,
	forEachRow,
	VerdictEncoder,
} from '../../../../worker/src/rows/rowBatchCodec';
import type { RowInput, RowVerdict } from '../../../../worker/src/rows/rowRules';

describe('rows and verdicts between threads', () => {
	it('gives back the same rows, whatever their fields hold', () => {
		const rows: RowInput[] = [
			{ line: 2, fields: ['+61491570156', 'Ann', 'Bondi'] },
			{ line: 3, fields: [''] },
			{ line: 5, fields: ['0491 570 156', 'multi\nline "quoted"', '', 'ж😀', 'extra'] },
			{ line: 9, fields: [] },
		];
		expect(decodeRows(encodeRows(rows))).toEqual(rows);
	});

	it('gives back the tracked links of a row judged on a thread (--track-links)', () => {
		const verdicts: RowVerdict[] = [
			{
				line: 2,
				ok: true,
				to: '+61491570156',
				text: 'Hi https://go.example.com/AbCdEfGh-_ and https://go.example.com/0123456789',
				segments: 1,
				timeZone: undefined,
				links: [
					{ token: 'AbCdEfGh-_', url: 'https://shop.example.com/a?b=c&d=e' },
					{ token: '0123456789', url: 'http://x.example/%20y' },
				],
			},
			{ line: 3, ok: true, to: '+61491570157', text: 'no link', segments: 1, timeZone: undefined },
		];
		expect(decodeVerdicts(encodeVerdicts(verdicts))).toEqual(verdicts);
	});

	it('gives back the same verdicts, accepted with and without text and zone, and refused', () => {
		const verdicts: RowVerdict[] = [
			{ line: 2, ok: true, to: '+61491570156', text: 'Hi Ann', segments: 1, timeZone: undefined },
			{
				line: 3,
				ok: false,
				code: 'INVALID_NUMBER',
				reason: 'Phone: "x" is not a valid phone number',
			},
			{ line: 4, ok: true, to: '+61491570157', segments: 2, timeZone: 'Australia/Sydney' },
			{
				line: 6,
				ok: false,
				code: 'EMPTY_VALUE',
				reason: 'column Name is empty',
				to: '+61491570158',
			},
			{ line: 7, ok: true, to: '+61491570159', text: 'ж'.repeat(80), segments: 2, timeZone: 'UTC' },
		];
		const back = decodeVerdicts(encodeVerdicts(verdicts));
		expect(back).toEqual(verdicts);
		// Shapes as the validator makes them: no text key when no text was asked for.
		expect(Object.keys(back[2])).toEqual(['line', 'ok', 'to', 'segments', 'timeZone']);
	});

	it('judges row by row as a validator thread does: each row decoded in turn, each verdict encoded as made, the same answer as whole batches', () => {
		const rows: RowInput[] = [
			{ line: 2, fields: ['+61491570156', 'Ann'] },
			{ line: 3, fields: ['bad', 'Bo'] },
			{ line: 7, fields: ['+61491570157', 'multi\nline'] },
		];
		const judge = (r: RowInput): RowVerdict =>
			r.fields[0] === 'bad'
				? { line: r.line, ok: false, code: 'INVALID_NUMBER', reason: `${r.fields[1]}: bad` }
				: {
						line: r.line,
						ok: true,
						to: r.fields[0],
						text: `Hi ${r.fields[1]}`,
						segments: 1,
						timeZone: undefined,
					};
		const seen: RowInput[] = [];
		const encoder = new VerdictEncoder(rows.length);
		forEachRow(encodeRows(rows), (row) => {
			seen.push(row);
			encoder.add(judge(row));
		});
		expect(seen).toEqual(rows);
		expect(decodeVerdicts(encoder.done())).toEqual(rows.map(judge));
	});
});
