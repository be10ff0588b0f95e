import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { cli, envFor, sandboxMessages, summaryOf, tempDir, withSandbox, writeCsv } from './harness';

/** `n` valid, distinct AU mobiles from `start`, one CSV line each. */
function rows(n: number, start: number): string {
	let text = '';
	for (let i = start; i < start + n; i++) text += `+614${String(20_000_000 + i).slice(-8)},N${i}\n`;
	return text;
}

describe('every CSV line is accounted for, whatever one line holds', () => {
	let sandbox: RunningSandbox;
	let env: Record<string, string>;
	let dir: string;
	beforeAll(async () => {
		sandbox = await withSandbox();
		env = envFor(sandbox);
		dir = tempDir();
	});
	afterAll(async () => sandbox?.close());

	const base = (name: string, csv: string) => [
		'campaign',
		'run',
		'--csv',
		csv,
		'--text',
		'Hi {{Name}}',
		'--property',
		sandbox.demo.PropertySid,
		'--db',
		join(dir, `${name}.db`),
		'--name',
		name,
		'--rate',
		'0',
	];
	const outLines = (path: string) =>
		readFileSync(path, 'utf8')
			.trim()
			.split('\n')
			.slice(1)
			.map((l) => l.split(','));

	it('a 1,200,000-character field makes its own line invalid, naming line and column; the 100 other rows are sent, with and without --dry-run', async () => {
		const csv = writeCsv(
			dir,
			'long.csv',
			`To,Name\n${rows(50, 0)}+61420000999,"${'x'.repeat(1_200_000)}"\n${rows(50, 50)}`,
		);
		for (const dryRun of [true, false]) {
			const name = dryRun ? 'longdry' : 'longrun';
			const out = join(dir, `${name}.out.csv`);
			const r = await cli(
				[...base(name, csv), '--out', out, ...(dryRun ? ['--dry-run'] : [])],
				env,
			);
			expect(r.code, r.stderr).toBe(0);
			const s = summaryOf(r);
			expect(s.total).toBe(101);
			expect(s.rows).toMatchObject({ [dryRun ? 'pending' : 'accepted']: 100, invalid: 1 });
			expect(s.firstErrors).toEqual([
				{
					line: 52,
					code: 'CSV_MALFORMED',
					reason: 'column 2 (Name) is longer than the maximum of 100,000 characters',
				},
			]);
			const lines = outLines(out);
			expect(lines.map((l) => Number(l[0]))).toEqual(Array.from({ length: 101 }, (_, i) => i + 2));
			expect(lines.filter((l) => l[2] === 'invalid').map((l) => l[0])).toEqual(['52']);
		}
		const sent = (await sandboxMessages(sandbox)).filter((m) =>
			m.ExternalId?.startsWith('longrun:'),
		);
		expect(sent.map((m) => Number(m.ExternalId!.split(':')[1])).sort((a, b) => a - b)).toEqual([
			...Array.from({ length: 50 }, (_, i) => i + 2),
			...Array.from({ length: 50 }, (_, i) => i + 53),
		]);
	});

	it('a 5 MB field in a 2-row file: that row invalid, the other sent', async () => {
		const csv = writeCsv(
			dir,
			'five.csv',
			`To,Name\n+61420000001,"${'y'.repeat(5_000_000)}"\n+61420000002,Bo\n`,
		);
		const r = await cli(base('five', csv), env);
		expect(r.code, r.stderr).toBe(0);
		const s = summaryOf(r);
		expect(s.total).toBe(2);
		expect(s.rows).toMatchObject({ accepted: 1, invalid: 1 });
		expect(s.firstErrors.map((e) => e.line)).toEqual([2]);
		expect(
			(await sandboxMessages(sandbox))
				.filter((m) => m.ExternalId?.startsWith('five:'))
				.map((m) => m.Text),
		).toEqual(['Hi Bo']);
	});

	it('reads standard input for --csv - and --csv /dev/stdin', async () => {
		for (const [name, path] of [
			['dash', '-'],
			['devstdin', '/dev/stdin'],
		]) {
			const r = await cli([...base(name, path), '--dry-run'], env, {
				input: `To,Name\n${rows(3, 200)}`,
			});
			expect(r.code, r.stderr).toBe(0);
			expect(summaryOf(r).rows).toMatchObject({ pending: 3 });
		}
	});

	it('names a directory given as --csv, and escapes the control bytes of a binary file', async () => {
		const d = await cli(base('dir', dir), env);
		expect(d.code).toBe(1);
		expect(d.stderr).toMatch(/cannot read the CSV file .*: it is a directory, not a file/);
		// A binary file's header lands in the error on the terminal: its control bytes escaped.
		const csv = writeCsv(dir, 'bin.csv', 'W\x1b[2J\x07ho,Name\n1,x\n');
		const r = await cli(base('bin', csv), env);
		expect(r.code).toBe(2);
		expect(r.stderr.includes('\x07') || r.stderr.includes('\x1b')).toBe(false);
		expect(r.stderr).toContain('(columns: W\\x1b[2J\\x07ho, Name)');
	});
});
