import { describe, expect, it } from 'vitest';
import type { CsvItem } from '../../../../worker/src/csv/csvItem';
import { CsvRecordParser } from '../../../../worker/src/csv/csvRecordParser';

/** Parses `text` pushed in pieces of `piece` characters, as a stream would hand it over. */
function parse(text: string, piece = text.length, maxField = 20, maxRecord = 60): CsvItem[] {
	const parser = new CsvRecordParser(',', maxField, maxRecord);
	parser.header = ['To', 'Name'];
	const out: CsvItem[] = [];
	for (let i = 0; i < text.length; i += piece)
		out.push(...parser.push(text.slice(i, i + piece), i + piece >= text.length));
	if (text.length === 0) out.push(...parser.push('', true));
	return out;
}

const brief = (items: CsvItem[]) =>
	items.map((i) => ('error' in i ? `${i.line}: ${i.error}` : `${i.line}: ${i.fields.join('|')}`));

describe('CSV records', () => {
	it('reads quoted fields, escaped quotes, CRLF, empty lines and a last line without a newline, in any pieces', () => {
		const text = 'a,"b ""q"", c"\r\n\r\n"multi\nline",x\n,\nlast,row';
		for (const piece of [1, 2, 3, 7, 1000]) {
			expect(brief(parse(text, piece))).toEqual([
				'1: a|b "q", c',
				'3: multi\nline|x',
				'5: |',
				'6: last|row',
			]);
		}
	});
	it('makes a field over the maximum an error of its own line, naming the column, and reads every later line', () => {
		const long = 'x'.repeat(25);
		const text = `1,a\n2,"${long}"\n3,${long}\n4,d\n`;
		for (const piece of [1, 4, 1000]) {
			expect(brief(parse(text, piece))).toEqual([
				'1: 1|a',
				'2: column 2 (Name) is longer than the maximum of 20 characters',
				'3: column 2 (Name) is longer than the maximum of 20 characters',
				'4: 4|d',
			]);
		}
	});
	it('reads a quote inside an unquoted field as a character, as Excel does, with a warning naming the column', () => {
		for (const piece of [1, 3, 1000]) {
			const items = parse('1,12" pizza\n2,"ok"\n', piece);
			expect(brief(items)).toEqual(['1: 1|12" pizza', '2: 2|ok']);
			expect(items.map((i) => ('warning' in i ? i.warning : undefined))).toEqual([
				'column 2 (Name) has a quote inside it that does not start it: read as a character ("12\\" pizza")',
				undefined,
			]);
		}
	});
	it('resumes at the next line after a quote never closed, or text after a closing quote', () => {
		expect(brief(parse('2,"ok"z\n3,"open\n4,d\n'))).toEqual([
			'1: column 2 (Name) has text after its closing quote',
			'2: the quote that opens column 2 (Name) is never closed',
			'3: 4|d',
		]);
	});
	it('bounds a row of many fields and reads on', () => {
		const wide = Array.from({ length: 20 }, () => 'abcd').join(',');
		expect(brief(parse(`${wide}\n5,e\n`, 8))).toEqual([
			'1: the row is longer than the maximum of 60 characters',
			'2: 5|e',
		]);
	});
	it('skips the rest of an over-long line that arrives in many pieces without holding it', () => {
		const parser = new CsvRecordParser(',', 20, 60);
		const out: CsvItem[] = [...parser.push('1,a\n2,')];
		for (let i = 0; i < 100; i++) {
			out.push(...parser.push('y'.repeat(1000)));
			expect(parser.buffered()).toBeLessThan(100);
		}
		out.push(...parser.push('\n3,c\n', true));
		expect(brief(out)).toEqual([
			'1: 1|a',
			'2: column 2 (a) is longer than the maximum of 20 characters',
			'3: 3|c',
		]);
	});
});
