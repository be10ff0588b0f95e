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
		return cli(['campaign', 'run', '--csv', csv, '--text', 'Hi {{Name}}', '--property', sandbox.demo.PropertySid, '--db', join(dir, 'l.db'), '--name', name, ...extra], env);
	};
	const sentFor = async (name: string) => (await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith(`${name}:`)).map((m) => m.ExternalId);

	it('reports broken quotes by line and sends the rest', async () => {
		const r = await run('To,Name\n+61491570156,Ann\n+61491570157,Bo"b\n+61491570158,"Cy"x\n+61491570159,Dee\n+61491570110,"Eve"\n+61491570111,Fay\n');
		expect(r.code, r.stderr).toBe(0);
		const s = summaryOf(r);
		// Each bad line is reported on its own, and reading resumes at the next line.
		expect(s.firstErrors.map((e) => [e.line, e.code])).toEqual([
			[3, 'CSV_MALFORMED'],
			[4, 'CSV_MALFORMED'],
		]);
		expect(s.firstErrors[1].reason).toBe('column 2 (Name) has text after its closing quote');
		expect(s.rows).toMatchObject({ accepted: 4, invalid: 2 });
		expect((await sentFor('bad0')).sort()).toEqual(['bad0:2', 'bad0:5', 'bad0:6', 'bad0:7']);
	});

	it('stops before sending when the template names a column the file lacks', async () => {
		const r = await run('To,FirstName\n+61491570156,Ann\n');
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/--text: the template uses \{\{Name\}\}, but the CSV has no such column \(columns: To, FirstName\)/);
		expect(await sentFor('bad1')).toEqual([]);
	});

	it('reports a row missing a field, and an empty value, as row errors', async () => {
		const r = await run('To,Name,City\n+61491570156,Ann,Perth\n+61491570157,Bob\n+61491570158,,Perth\n');
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
		const texts = (await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith('bad4:')).map((m) => m.Text);
		expect(texts).toEqual(['Hi Ann; the first', 'Hi Bob']);
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
