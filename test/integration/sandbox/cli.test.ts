import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSandboxArgs } from '../../../sandbox/src/cli';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/freshBuild';

const root = join(__dirname, '..', '..', '..');
// One test runs the built sandbox, as users do: built first when its sources changed.
beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);

describe('sandbox start-up flags', () => {
	it('maps every flag of contract.md', () => {
		const { options, json } = parseSandboxArgs([
			'--port',
			'0',
			'--host',
			'127.0.0.2',
			'--latency-ms',
			'5',
			'--fail-rate',
			'0.25',
			'--rate-limit',
			'100',
			'--receipt-delay-ms',
			'10',
			'--json',
		]);
		expect(options).toMatchObject({
			port: 0,
			host: '127.0.0.2',
			latencyMs: 5,
			failRate: 0.25,
			rateLimit: 100,
			receiptDelayMs: 10,
		});
		expect(json).toBe(true);
	});

	it.each([
		[['--port', '70000'], /--port/],
		[['--fail-rate', '2'], /--fail-rate/],
		[['--rate-limit', 'many'], /--rate-limit/],
		[['--bogus'], /bogus/],
	])('refuses %j clearly', (argv, message) => {
		expect(() => parseSandboxArgs(argv)).toThrow(message);
	});

	// Runs the built sandbox, as users do.
	it('starts as a process on a free port and prints its URL and a demo account', async () => {
		const child = spawn(
			process.execPath,
			[join(root, 'sandbox/dist/sandbox/src/main.js'), '--port', '0', '--json'],
			{ cwd: root },
		);
		try {
			const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
			const info = JSON.parse(chunk.toString().split('\n')[0]);
			expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			const auth = `Basic ${Buffer.from(`${info.AccountSid}:${info.AuthToken}`).toString('base64')}`;
			const r = await fetch(`${info.url}/v2/Properties/${info.PropertySid}/Messages`, {
				method: 'POST',
				headers: { authorization: auth, 'content-type': 'application/json' },
				body: JSON.stringify({ To: '+61412345678', Text: 'from the CLI' }),
			});
			expect(r.status).toBe(200);
			child.kill('SIGTERM');
			const [code] = await once(child, 'exit');
			expect(code).toBe(0);
		} finally {
			child.kill('SIGKILL');
		}
	});
});
