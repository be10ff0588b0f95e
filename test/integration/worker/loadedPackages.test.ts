import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { envFor, numbersCsv, tempDir, withSandbox, writeCsv } from './harness';

const CLI_MODULE = resolve(__dirname, '../../../worker/dist/worker/src/cli.js');

/** Runs the built CLI in a process of its own and lists the packages it loaded. */
function run(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ code: number; packages: string[] }> {
	const script = `require(${JSON.stringify(CLI_MODULE)}).main(${JSON.stringify(args)}).then((code) => {
		const names = new Set(Object.keys(require.cache).filter((k) => k.includes('node_modules')).map((k) => k.split('node_modules/').pop().split('/')[0]));
		process.stderr.write('\\n' + JSON.stringify({ code, packages: [...names] }));
	});`;
	return new Promise((done, fail) => {
		const child = spawn(process.execPath, ['-e', script], {
			env: { ...process.env, ...env },
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', (d) => (stderr += d));
		child.on('error', fail);
		child.on('close', () => {
			try {
				done(JSON.parse(stderr.trim().split('\n').pop()!));
			} catch {
				fail(new Error(`no report from the CLI: ${stderr}`));
			}
		});
	});
}

describe('what a run loads', () => {
	let sandbox: RunningSandbox;
	let dir: string;
	let csv: string;
	beforeAll(async () => {
		sandbox = await withSandbox();
		dir = tempDir();
		csv = writeCsv(dir, 'list.csv', numbersCsv(20));
	});
	afterAll(async () => sandbox?.close());

	it('a dry run on a SQLite ledger loads neither the HTTP client nor the Postgres driver; a run that sends loads the HTTP client', async () => {
		const dry = await run([
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--dry-run',
			'--db',
			join(dir, 'dry.db'),
		]);
		expect(dry.code).toBe(0);
		expect(dry.packages).toContain('libphonenumber-js');
		expect(dry.packages).not.toContain('undici');
		expect(dry.packages).not.toContain('pg');
		const sent = await run(
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
				join(dir, 'sent.db'),
				'--rate',
				'0',
			],
			envFor(sandbox),
		);
		expect(sent.code).toBe(0);
		expect(sent.packages).toContain('undici');
		expect(sent.packages).toContain('better-sqlite3');
		expect(sent.packages).not.toContain('pg');
	});
});
