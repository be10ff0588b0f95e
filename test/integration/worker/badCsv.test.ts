import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { cli, envFor, sandboxMessages, summaryOf, tempDir, withSandbox, writeCsv } from './harness';

describe('bad CSV files', () => {
	let sandbox: RunningSandbox;
	let env: Record<string, string>;
	let dir: string;
	let n = 0;
	beforeAll(async () => {
		sandbox = await withSandbox();
		env = envFor(sandbox);
		dir = tempDir();
	});
	afterAll(async () => sandbox?.close());

	const run = (text: string, extra: string[] = []) => {
		const name = `bad${n++}`;
		const csv = writeCsv(dir, `${name}.csv`, text);
		return cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				join(dir, 'l.db'),
				'--name',
				name,
				...extra,
			],
			env,
		);
	};
	const sentFor = async (name: string) =>
		(await sandboxMessages(sandbox))
			.filter((m) => m.ExternalId?.startsWith(`${name}:`))
			.map((m) => m.ExternalId);

	it('reports broken quotes by line and sends the rest; a quote inside an unquoted field is a character, with a warning', async () => {
		const r = await run(
			'To,Name\n+61491570156,Ann\n+61491570157,Bo"b\n+61491570158,"Cy"x\n+61491570159,Dee\n+61491570110,"Eve"\n+61491570111,12" pizza\n',
		);
		expect(r.code, r.stderr).toBe(0);
		const s = summaryOf(r);
		// Each bad line is reported on its own, and reading resumes at the next line.
		expect(s.firstErrors.map((e) => [e.line, e.code])).toEqual([[4, 'CSV_MALFORMED']]);
		expect(s.firstErrors[0].reason).toBe('column 2 (Name) has text after its closing quote');
		expect(s.rows).toMatchObject({ accepted: 5, invalid: 1 });
		expect(r.events.filter((e) => e.event === 'csv-warning').map((e) => e.line)).toEqual([3, 7]);
		const sent = (await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith('bad0:'));
		expect(sent.map((m) => m.ExternalId).sort()).toEqual([
			'bad0:2',
			'bad0:3',
			'bad0:5',
			'bad0:6',
			'bad0:7',
		]);
		expect(sent.find((m) => m.ExternalId === 'bad0:7')?.Text).toBe('Hi 12" pizza');
	});

	it('stops before sending when the template names a column the file lacks', async () => {
		const r = await run('To,FirstName\n+61491570156,Ann\n');
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(
			/--text: the template uses \{\{Name\}\}, but the CSV has no such column \(columns: To, FirstName\)/,
		);
		expect(await sentFor('bad1')).toEqual([]);
	});

	it('reports a row missing a field, and an empty value, as row errors', async () => {
		const r = await run(
			'To,Name,City\n+61491570156,Ann,Perth\n+61491570157,Bob\n+61491570158,,Perth\n',
		);
		expect(r.code).toBe(0);
		expect(summaryOf(r).firstErrors.map((e) => e.code)).toEqual(['FIELD_COUNT', 'EMPTY_VALUE']);
	});

	it('refuses an empty file', async () => {
		const r = await run('');
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/is empty: it needs a header line and rows/);
	});

	it('reads a BOM and semicolons', async () => {
		const r = await run('\ufeffTo;Name\r\n+61491570156;"Ann; the first"\r\n+61491570157;Bob\r\n');
		expect(r.code, r.stderr).toBe(0);
		expect(summaryOf(r).rows).toMatchObject({ accepted: 2 });
		const texts = (await sandboxMessages(sandbox))
			.filter((m) => m.ExternalId?.startsWith('bad4:'))
			.map((m) => m.Text);
		expect(texts).toEqual(['Hi Ann; the first', 'Hi Bob']);
	});

	it('refuses a Windows-1252 file before sending anything, then sends it right with --encoding windows-1252', async () => {
		const name = `bad${n++}`;
		const csv = join(dir, `${name}.csv`);
		writeFileSync(
			csv,
			Buffer.from('To,Name\r\n+61491570156,M\xfcller\r\n+61491570157,Jos\xe9\r\n', 'latin1'),
		);
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.demo.PropertySid,
			'--db',
			join(dir, 'l.db'),
			'--name',
			name,
		];
		const refused = await cli(args, env);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(
			/is not UTF-8: line 2 has byte 0xFC .* give --encoding windows-1252 \(or latin1\)/,
		);
		expect(await sentFor(name)).toEqual([]);
		const dry = await cli([...args, '--dry-run'], env);
		expect(dry.code).toBe(1);
		expect(dry.stderr).toMatch(/line 2 has byte 0xFC/);
		// A name Object.prototype holds is no encoding either.
		const unknown = await cli([...args, '--encoding', 'constructor'], env);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toMatch(/--encoding must be windows-1252 .*\(got "constructor"\)/);
		const sent = await cli([...args, '--encoding', 'windows-1252'], env);
		expect(sent.code, sent.stderr).toBe(0);
		const texts = (await sandboxMessages(sandbox))
			.filter((m) => m.ExternalId?.startsWith(`${name}:`))
			.map((m) => m.Text);
		expect(texts.sort()).toEqual(['Hi José', 'Hi Müller']);
		expect(texts.join('')).not.toContain('\ufffd');
	});

	it('sends a UTF-16 file with BOM (Excel\'s "Unicode Text"), a sep= line and CR line endings', async () => {
		const name = `bad${n++}`;
		const csv = join(dir, `${name}.csv`);
		writeFileSync(
			csv,
			Buffer.concat([
				Buffer.from([0xff, 0xfe]),
				Buffer.from('sep=;\rTo;Name\r+61491570156;Zoë\r+61491570157;Ann\r', 'utf16le'),
			]),
		);
		const r = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				join(dir, 'l.db'),
				'--name',
				name,
			],
			env,
		);
		expect(r.code, r.stderr).toBe(0);
		const sent = (await sandboxMessages(sandbox)).filter((m) =>
			m.ExternalId?.startsWith(`${name}:`),
		);
		expect(sent.map((m) => [m.ExternalId, m.Text]).sort()).toEqual([
			[`${name}:3`, 'Hi Zoë'],
			[`${name}:4`, 'Hi Ann'],
		]);
	});

	it('finishes a file with a header only as zero rows', async () => {
		const r = await run('To,Name\n');
		expect(r.code).toBe(0);
		expect(summaryOf(r).total).toBe(0);
	});

	it('names the columns when it cannot find the numbers', async () => {
		const r = await run('Who,Name\nx,y\n');
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/--to-column \(columns: Who, Name\)/);
	});
});
