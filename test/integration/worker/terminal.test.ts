import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { CLI, envFor, numbersCsv, tempDir, withSandbox, writeCsv } from './harness';

/** Runs the CLI on a pseudo-terminal, as a person at a shell would: util-linux `script` gives it one. */
function onTerminal(
	args: string[],
	env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
	const command = [process.execPath, CLI, ...args]
		.map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
		.join(' ');
	const child = spawn('script', ['-qfec', command, '/dev/null'], {
		env: { ...process.env, ...env, TERM: 'xterm' },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, output }));
	});
}

describe('campaign run at a terminal', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await withSandbox();
	});
	afterAll(async () => sandbox?.close());

	it('draws a progress bar with rate and ETA, shows row errors, and ends with the summary for a person', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(300) + 'not-a-number,Bad\n');
		const run = await onTerminal(
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
				'tty',
				'--rate',
				'200',
				'--batch-size',
				'20',
			],
			envFor(sandbox),
		);
		expect(run.code).toBe(0);
		// Redrawn in place: carriage return, clear line, then the bar.
		const bars = run.output.split('\r\x1b[2K').filter((s) => s.startsWith('sending'));
		expect(bars.length).toBeGreaterThan(2);
		expect(bars[bars.length - 1]).toMatch(
			/^sending +\[#+\.*\] \d+\/300 messages +\d+\/s +ETA (\d+s|--)/,
		);
		expect(bars.some((b) => / [1-9]\d*\/300 /.test(b) && !/ 300\/300 /.test(b))).toBe(true);
		expect(run.output).toMatch(/line 302: INVALID_NUMBER: Phone: "not-a-number"/);
		expect(run.output).toMatch(/Campaign tty: finished/);
		expect(run.output).toMatch(/accepted +300 {2}by the provider/);
		expect(run.output).toMatch(/invalid +1 {2}not sent: see the errors/);
		// No JSON log lines on a terminal.
		expect(run.output).not.toMatch(/^\{"(time|level)"/m);
	});
});
