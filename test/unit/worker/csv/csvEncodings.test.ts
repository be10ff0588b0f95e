import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCsvError, type CsvItem } from '../../../../worker/src/csv/csvItem';
import { openCsv, type CsvOptions } from '../../../../worker/src/csv/openCsv';
import { tempDir } from '../../../support/tempDir';

const dir = tempDir('cloudtel-enc-');
let n = 0;
async function read(bytes: Buffer | string, options: CsvOptions = {}) {
	const path = join(dir, `f${n++}.csv`);
	writeFileSync(path, bytes);
	const csv = await openCsv(path, options);
	const items: CsvItem[] = [];
	for await (const b of csv.batches) items.push(...b.items);
	return {
		csv,
		items,
		rows: items.map((i) =>
			isCsvError(i) ? `error@${i.line}: ${i.error}` : `${i.line}: ${i.fields.join('|')}`,
		),
	};
}

const utf16be = (text: string) => {
	const le = Buffer.from(text, 'utf16le');
	for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
	return le;
};

describe('CSV encodings', () => {
	const text = 'To,Name\r\n+61491570156,Müller\r\n+61491570157,José 😀\r\n';
	const expected = ['2: +61491570156|Müller', '3: +61491570157|José 😀'];

	it('reads UTF-8 with or without a BOM', async () => {
		expect((await read(text)).rows).toEqual(expected);
		const bom = await read('\ufeff' + text);
		expect(bom.rows).toEqual(expected);
		expect(bom.csv.header).toEqual(['To', 'Name']);
	});

	it('reads UTF-16 LE and BE with their BOM (Excel\'s "Unicode Text")', async () => {
		const le = await read(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
		expect(le.csv.header).toEqual(['To', 'Name']);
		expect(le.csv.encoding).toBe('utf-16le');
		expect(le.rows).toEqual(expected);
		const be = await read(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]));
		expect(be.csv.encoding).toBe('utf-16be');
		expect(be.rows).toEqual(expected);
		// Tabs, as "Unicode Text" has them.
		const tabs = await read(
			Buffer.concat([
				Buffer.from([0xff, 0xfe]),
				Buffer.from('To\tName\r\n+61491570156\tMüller\r\n', 'utf16le'),
			]),
		);
		expect(tabs.rows).toEqual(['2: +61491570156|Müller']);
	});

	it('refuses Windows-1252 read as UTF-8, naming the line and the byte and the way out', async () => {
		const cp1252 = Buffer.from('To,Name\n+61491570156,Ann\n+61491570157,M\xfcller\n', 'latin1');
		await expect(read(cp1252)).rejects.toThrow(
			/is not UTF-8: line 3 has byte 0xFC \(byte 40 of the file\), which UTF-8 cannot read\. A file Excel saved as "CSV \(Comma delimited\)" is Windows-1252: give --encoding windows-1252 \(or latin1\)/,
		);
		// On the header line too, before any parser exists.
		await expect(read(Buffer.from('To,N\xe4me\n1,a\n', 'latin1'))).rejects.toThrow(
			/line 1 has byte 0xE4 \(byte 5 of the file\)/,
		);
	});

	it('reads Windows-1252 when told, its 0x80-0x9F characters included, and latin1 as the same', async () => {
		const cp1252 = Buffer.concat([
			Buffer.from('To,Name\n+61491570156,M\xfcller \x93Jo\x94 \x80\n', 'latin1'),
		]);
		expect((await read(cp1252, { encoding: 'windows-1252' })).rows).toEqual([
			'2: +61491570156|Müller “Jo” €',
		]);
		expect((await read(cp1252, { encoding: 'latin1' })).rows).toEqual([
			'2: +61491570156|Müller “Jo” €',
		]);
	});

	it('finds a bad byte far into a file, past many read chunks, and a character split between chunks is fine', async () => {
		// Two- and three-byte characters on every line fall across the 32 KB chunk edges.
		const lines = ['To,Name'];
		for (let i = 0; i < 5000; i++)
			lines.push(`+614915${String(i).padStart(5, '0')},Zoë – ${'é'.repeat(i % 7)}`);
		const good = lines.join('\n') + '\n';
		const ok = await read(good);
		expect(ok.items).toHaveLength(5000);
		expect(ok.rows[4999]).toBe(`5001: +61491504999|Zoë – ${'é'.repeat(4999 % 7)}`);
		const bad = Buffer.concat([Buffer.from(good), Buffer.from('+61491570157,Ren\xe9\n', 'latin1')]);
		await expect(read(bad)).rejects.toThrow(
			new RegExp(
				`line 5002 has byte 0xE9 \\(byte ${(Buffer.byteLength(good) + 17).toLocaleString('en-US')} of the file\\)`,
			),
		);
		// A file cut inside a character.
		await expect(
			read(Buffer.concat([Buffer.from('To,Name\n1,'), Buffer.from('é').subarray(0, 1)])),
		).rejects.toThrow(/line 2 has byte 0xC3/);
	});

	it('honours a sep= first line (Excel), which is not a row, and numbers lines as the file does', async () => {
		const r = await read('sep=;\r\nTo;Name\r\n+61491570156;Ann, Lee\r\n');
		expect(r.csv.delimiter).toBe(';');
		expect(r.csv.header).toEqual(['To', 'Name']);
		expect(r.rows).toEqual(['3: +61491570156|Ann, Lee']);
		expect((await read('\ufeffsep=|\nTo|Name\n1|a\n')).rows).toEqual(['3: 1|a']);
	});

	it('reads CR, LF and CRLF line endings alike', async () => {
		for (const eol of ['\r', '\n', '\r\n']) {
			const r = await read(`To,Name${eol}1,"a${eol}b"${eol}2,c${eol}`);
			expect(r.csv.header, JSON.stringify(eol)).toEqual(['To', 'Name']);
			expect(r.items.map((i) => (isCsvError(i) ? i.error : i.fields))).toEqual([
				['1', `a${eol === '\r' ? '\n' : eol}b`],
				['2', 'c'],
			]);
		}
		// A long CR-only file: more than the header sample, lines numbered.
		const long = ['To,Name', ...Array.from({ length: 20000 }, (_, i) => `${i},x`)].join('\r');
		const r = await read(long);
		expect(r.items).toHaveLength(20000);
		expect(r.rows[19999]).toBe('20001: 19999|x');
	});
});

describe('csv-spectrum as an oracle', () => {
	const root = dirname(require.resolve('csv-spectrum/package.json'));
	const cases = [
		'comma_in_quotes',
		'empty',
		'empty_crlf',
		'escaped_quotes',
		'json',
		'location_coordinates',
		'newlines',
		'newlines_crlf',
		'quotes_and_newlines',
		'simple',
		'simple_crlf',
		'utf8',
	];
	it.each(cases)('%s reads as its JSON says', async (name) => {
		const csv = await openCsv(join(root, 'csvs', `${name}.csv`));
		const records: Record<string, string>[] = [];
		for await (const b of csv.batches) {
			for (const item of b.items) {
				if (isCsvError(item)) throw new Error(`line ${item.line}: ${item.error}`);
				records.push(Object.fromEntries(csv.header.map((h, i) => [h, item.fields[i]])));
			}
		}
		// One case's JSON is an object, not a list of one; and it has another phone number than
		// its CSV (upstream's slip): the column it is about, quotes inside an unquoted field, is compared.
		const expected = [
			JSON.parse(readFileSync(join(root, 'json', `${name}.json`), 'utf8')) as
				| Record<string, string>
				| Record<string, string>[],
		].flat();
		if (name === 'location_coordinates') {
			expect(records.map((r) => r['Location Coordinates'])).toEqual(
				expected.map((r) => r['Location Coordinates']),
			);
		} else expect(records).toEqual(expected);
	});
});
