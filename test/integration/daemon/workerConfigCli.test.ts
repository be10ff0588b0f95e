import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, freePort, tempDir, WorkerProcess, writeConfig } from './harness';

const SID = '11111111-1111-4111-8111-111111111111';
const SECRETS = {
	CLOUDTEL_ACCOUNT_SID: 'A',
	CLOUDTEL_AUTH_TOKEN: 'T',
	CLOUDTEL_CALLBACK_SECRET: '0123456789abcdef',
};

function campaignConfig(dir: string, campaigns: Record<string, unknown>[], port = 8080) {
	return writeConfig(dir, {
		provider: { baseUrl: 'http://127.0.0.1:9' },
		db: 'worker.db',
		server: { publicUrl: 'https://worker.example.com', port, host: '127.0.0.1' },
		campaigns: campaigns.map((c, i) => ({
			name: `c${i}`,
			cron: '0 9 * * 1',
			timeZone: 'UTC',
			property: SID,
			...c,
		})),
	});
}

function run(args: string[], env: Record<string, string> = {}) {
	return spawnSync(process.execPath, [CLI, 'worker', ...args], {
		encoding: 'utf8',
		env: {
			...process.env,
			CLOUDTEL_AUTH_TOKEN: '',
			CLOUDTEL_ACCOUNT_SID: '',
			CLOUDTEL_BASE_URL: '',
			...env,
		},
	});
}

beforeAll(() => ensureBuilt(), 120_000);

describe('cloudtel worker --config', () => {
	it('refuses a bad config with every problem by its path, exit 2, and starts nothing', () => {
		const dir = tempDir();
		const file = writeConfig(dir, {
			provider: { baseUrl: 'http://127.0.0.1:1', accountSid: 'A' },
			server: { publicUrl: 'not a url', secret: 'short' },
			campaigns: [{ name: 'a', cron: 'every monday', csv: 'x.csv', property: 'p', text: 't' }],
		});
		const result = run(['--config', file]);
		expect(result.status).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toContain(`the config ${file} is not valid:`);
		for (const path of [
			'provider.authToken: is required (here, or CLOUDTEL_AUTH_TOKEN in the environment)',
			'server.publicUrl:',
			'server.secret:',
			'campaigns[0].cron:',
			'campaigns[0].property:',
		]) {
			expect(result.stderr).toContain(path);
		}
	});

	it('--check validates a good config (secrets from the environment) and exits 0', () => {
		const result = run(['--config', 'examples/worker.config.yaml', '--check'], {
			CLOUDTEL_ACCOUNT_SID: 'A',
			CLOUDTEL_AUTH_TOKEN: 'T',
			CLOUDTEL_CALLBACK_SECRET: '0123456789abcdef',
		});
		expect(result.stderr).toBe('');
		expect(result.stdout).toMatch(/: valid; campaigns: 1, reply rules: 4$/m);
		expect(result.status).toBe(0);
	});

	it('warns, at --check and at start, when the config file holds secrets and others may read it', async () => {
		const dir = tempDir();
		const port = await freePort();
		const file = writeConfig(dir, {
			provider: {
				baseUrl: 'http://127.0.0.1:9',
				accountSid: 'A',
				authToken: 'auth-token-in-the-file',
			},
			db: 'worker.db',
			server: {
				publicUrl: 'https://worker.example.com',
				port,
				host: '127.0.0.1',
				secret: '0123456789abcdef',
			},
		});
		const warning =
			/the config .*worker\.config\.yaml holds secrets .* can be read by others than its owner \(mode 644\): chmod 600 it/;
		chmodSync(file, 0o644);
		const shared = run(['--config', file, '--check']);
		expect(shared.status).toBe(0);
		expect(shared.stderr).toMatch(warning);
		expect(shared.stderr).not.toContain('auth-token-in-the-file');
		const worker = await WorkerProcess.start(file, {});
		try {
			expect(
				(await worker.waitFor((l) => warning.test(String(l.msg)), 5_000, 'the warning')).level,
			).toBe('warn');
		} finally {
			await worker.stop();
		}
		chmodSync(file, 0o600);
		expect(run(['--config', file, '--check']).stderr).toBe('');
		// Secrets from the environment: the file holds none, whoever may read it.
		const envOnly = campaignConfig(dir, []);
		chmodSync(envOnly, 0o644);
		expect(run(['--config', envOnly, '--check'], SECRETS).stderr).toBe('');
	}, 40_000);

	it('asks for --config, and a missing file is named', () => {
		expect(run([]).stderr).toContain('cloudtel worker needs --config FILE');
		const missing = run(['--config', '/nonexistent/worker.yaml']);
		expect(missing.status).toBe(2);
		expect(missing.stderr).toContain('/nonexistent/worker.yaml');
	});

	it("--check opens each campaign's CSV and names what does not fit by config path, never by CLI flag", () => {
		const dir = tempDir();
		writeFileSync(join(dir, 'list.csv'), 'Phone,FirstName\n+61491570156,Ann\n');
		const file = campaignConfig(dir, [
			{ csv: 'missing.csv', text: 'Hi' },
			{ csv: 'list.csv', toColumn: 'Mobile', text: 'Hi {{Nmae}}, {{FirstName}}' },
			{ csv: 'list.csv', toColumn: 'Phone', text: 'Hi {{FirstName}}' },
		]);
		const result = run(['--config', file, '--check'], SECRETS);
		expect(result.status).toBe(2);
		expect(result.stdout).toBe('');
		const lines = result.stderr.split('\n').filter((l) => l.startsWith('  '));
		expect(lines).toEqual([
			`  campaigns[0].csv: cannot read the CSV file ${join(dir, 'missing.csv')}: no such file`,
			`  campaigns[1].toColumn: Mobile is not a column of ${join(dir, 'list.csv')} (columns: Phone, FirstName)`,
			'  campaigns[1].text: the template uses {{Nmae}}, but the CSV has no such column (columns: Phone, FirstName)',
		]);
		expect(result.stderr).not.toMatch(/--text|--to-column|--csv/);
		// The same config refuses to start, for the same reasons.
		const start = run(['--config', file], SECRETS);
		expect(start.status).toBe(2);
		expect(start.stderr).toContain('campaigns[1].text: the template uses {{Nmae}}');
	});

	it('checks the CSV again at every tick and logs what no longer fits by config path', async () => {
		const dir = tempDir();
		const csv = join(dir, 'list.csv');
		writeFileSync(csv, 'Phone,FirstName\n+61491570156,Ann\n');
		const file = campaignConfig(
			dir,
			[{ csv: 'list.csv', cron: '* * * * * *', text: 'Hi {{FirstName}}' }],
			await freePort(),
		);
		const worker = await WorkerProcess.start(file, SECRETS);
		try {
			writeFileSync(csv, 'Phone,Name\n+61491570156,Ann\n');
			const line = await worker.waitFor(
				(l) => l.msg === 'campaign not run: its config does not fit its CSV',
				20_000,
				"the tick's check",
			);
			expect(line).toMatchObject({
				level: 'error',
				campaign: 'c0',
				problem:
					'campaigns[0].text: the template uses {{FirstName}}, but the CSV has no such column (columns: Phone, Name)',
			});
			expect(worker.text).not.toContain('--text');
		} finally {
			await worker.stop();
		}
	}, 40_000);
});
