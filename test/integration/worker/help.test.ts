import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cli } from './harness';

const VERSION = (
	JSON.parse(readFileSync(resolve(__dirname, '../../../worker/package.json'), 'utf8')) as {
		version: string;
	}
).version;

describe('help everywhere', () => {
	const cases: [string[], RegExp][] = [
		[['--help'], /cloudtel campaign run --csv FILE/],
		[['-h'], /cloudtel campaign run --csv FILE/],
		[['campaign', '--help'], /^Usage: cloudtel campaign COMMAND/],
		[['campaign', '-h'], /^Usage: cloudtel campaign COMMAND/],
		[['campaign', 'run', '--help'], /^Usage: cloudtel campaign run [\s\S]*--resend-uncertain/],
		[['campaign', 'run', '--csv', 'x.csv', '-h'], /^Usage: cloudtel campaign run/],
		[['campaign', 'status', '--help'], /^Usage: cloudtel campaign status/],
		[
			['campaign', 'retry-failed', '-h'],
			/^Usage: cloudtel campaign retry-failed [\s\S]*--error-codes/,
		],
		[['campaign', 'report', '-h'], /^Usage: cloudtel campaign report [\s\S]*--price-per-segment/],
		[['campaign', 'pause', '--help'], /^Usage: cloudtel campaign pause/],
		[['campaign', 'resume', '--help'], /^Usage: cloudtel campaign resume/],
		[['campaign', 'cancel', '--help'], /^Usage: cloudtel campaign cancel/],
		[['campaign', 'delete', '--help'], /^Usage: cloudtel campaign delete [\s\S]*--force/],
		[['demo', '--help'], /^Usage: cloudtel demo/],
		[['sandbox', '-h'], /^Usage: cloudtel sandbox/],
		[['worker', '--help'], /^cloudtel worker --config FILE/],
		[['contact', '--help'], /^Usage: cloudtel contact show/],
		[['contact', 'forget', '-h'], /^Usage: cloudtel contact show/],
	];
	it.each(cases)('%j prints its help and exits 0', async (args, expected) => {
		const r = await cli(args);
		expect(r.stderr).toBe('');
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(expected);
	});

	it('campaign run --help says piped output is JSON lines', async () => {
		const r = await cli(['campaign', 'run', '--help']);
		expect(r.stdout.replace(/\s+/g, ' ')).toContain(
			'Piped or redirected (into a file, jq or another program), or with --json, it is JSON lines on stdout',
		);
	});

	it('--version prints the package version', async () => {
		const r = await cli(['--version']);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe(`cloudtel ${VERSION}\n`);
	});

	it('-h given as the value of a flag is that value, not a request for help', async () => {
		const r = await cli([
			'campaign',
			'run',
			'--csv',
			'/nonexistent.csv',
			'--text',
			'-h',
			'--property',
			'PR1',
			'--dry-run',
		]);
		expect(r.stdout).not.toMatch(/^Usage:/);
		expect(r.code).not.toBe(0);
	});

	const misspelt: string[][] = [
		['campaign', 'run', '--csv', 'x.csv', '--txt', 'Hi'],
		['campaign', 'run', '--config', 'x.yaml', '--nme', 'a'],
		['campaign', 'retry-failed', '--nme', 'a'],
		['campaign', 'status', '--nme', 'a'],
		['campaign', 'report', '--nme', 'a'],
		['campaign', 'evidence', '--nme', 'a'],
		['campaign', 'pause', '--nme', 'a'],
		['events', 'list', '--deed'],
		['optouts', 'review', '--acept', '+61491570004'],
		['demo', '--jsn'],
		['worker', '--cofig', 'x.yaml'],
	];
	it.each(misspelt)(
		'%j: a flag the command does not take is a usage error naming it (exit 2), before anything is read',
		async (...args) => {
			const r = await cli(args);
			const flag = args.find((a) => /^--(txt|nme|deed|acept|jsn|cofig)$/.test(a));
			expect(r.stderr).toContain(`Unknown option '${flag}'`);
			expect(r.code).toBe(2);
		},
	);
});
