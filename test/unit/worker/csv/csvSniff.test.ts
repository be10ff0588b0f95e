import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCsvError, type CsvItem } from '../../../../worker/src/csv/csvItem';
import { openCsv } from '../../../../worker/src/csv/openCsv';
import { sniffDelimiter } from '../../../../worker/src/csv/sniffDelimiter';
import { tempDir } from '../../../support/tempDir';

const dir = tempDir('cloudtel-csv-');
let n = 0;
async function read(text: string) {
	const path = join(dir, `f${n++}.csv`);
	writeFileSync(path, text);
	const csv = await openCsv(path);
	const items: CsvItem[] = [];
	for await (const b of csv.batches) items.push(...b.items);
	return { csv, items };
}

describe('CSV sniffing and reading', () => {
	it('picks the delimiter of the header, ignoring quoted ones', () => {
		expect(sniffDelimiter('a,b,c\n1;2;3')).toBe(',');
		expect(sniffDelimiter('\ufeffa;b;"c,d,e"\n')).toBe(';');
		expect(sniffDelimiter('a\tb\tc')).toBe('\t');
		expect(sniffDelimiter('a|b')).toBe('|');
		expect(sniffDelimiter('phone')).toBe(',');
	});
	it('strips a BOM and numbers rows by the line they start on', async () => {
		const { csv, items } = await read(
			'\ufeffTo;Name\r\n+61491570156;"Ann\nLee"\r\n\r\n+61491570157;Bob\r\n',
		);
		expect(csv.header).toEqual(['To', 'Name']);
		expect(csv.delimiter).toBe(';');
		expect(items).toEqual([
			{ line: 2, fields: ['+61491570156', 'Ann\nLee'] },
			{ line: 5, fields: ['+61491570157', 'Bob'] },
		]);
	});
	it('reports a broken quote in place and goes on', async () => {
		const { items } = await read('To,Name\n1,a\n2,"x"y\n3,c\n');
		expect(items.map((i) => (isCsvError(i) ? `error@${i.line}` : i.line))).toEqual([
			2,
			'error@3',
			4,
		]);
	});
	it('reports an unclosed quote on its own line and reads on at the next line', async () => {
		const { items } = await read('To,Name\n1,a\n2,"open\n3,c\n4,d\n');
		expect(
			items.map((i) => (isCsvError(i) ? `error@${i.line}-${i.endLine}: ${i.error}` : i.line)),
		).toEqual([2, 'error@3-3: the quote that opens column 2 (Name) is never closed', 4, 5]);
	});
	it('refuses a header naming a column twice, naming the line and both columns', async () => {
		await expect(read('\nTo,Name,City,Name\n1,a,b,c\n')).rejects.toThrow(
			/the header of .* \(line 2\) names column 2 and column 4 both "Name"/,
		);
	});
	it('says a directory is not a file', async () => {
		await expect(openCsv(dir)).rejects.toThrow(
			/cannot read the CSV file .*: it is a directory, not a file/,
		);
	});
	it('refuses an empty file and an unreadable one', async () => {
		await expect(read('')).rejects.toThrow(/is empty/);
		await expect(read('\ufeff\n\n')).rejects.toThrow(/is empty/);
		await expect(openCsv(join(dir, 'missing.csv'))).rejects.toThrow(/no such file/);
	});
	it('reads a header alone as no rows', async () => {
		const { csv, items } = await read('To,Name\n');
		expect(csv.header).toEqual(['To', 'Name']);
		expect(items).toEqual([]);
	});
});

describe('CSV reading progress', () => {
	it('places each batch in the file by the records handed out, so rows per byte hold steady', async () => {
		let text = 'To,Name,Note\n';
		for (let i = 0; i < 30_000; i++)
			text += `+614${String(10_000_000 + i).slice(-8)},N${String(i).padStart(5, '0')},${i % 7 === 0 ? '"quoted, é"' : 'plain'}\n`;
		const path = join(dir, 'progress.csv');
		writeFileSync(path, text);
		const csv = await openCsv(path);
		const estimates: number[] = [];
		let rows = 0;
		for await (const b of csv.batches) {
			rows += b.items.length;
			estimates.push(Math.round((rows * csv.size) / b.bytes));
		}
		expect(rows).toBe(30_000);
		// The estimate of the total a progress bar shows, batch by batch (rows of even length): within 1% all along.
		for (const e of estimates) expect(Math.abs(e - 30_000) / 30_000).toBeLessThan(0.01);
	});
});
