import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, tempDir, writeConfig } from './harness';

function run(args: string[], env: Record<string, string> = {}) {
	return spawnSync(process.execPath, [CLI, 'worker', ...args], { encoding: 'utf8', env: { ...process.env, CLOUDTEL_AUTH_TOKEN: '', CLOUDTEL_ACCOUNT_SID: '', CLOUDTEL_BASE_URL: '', ...env } });
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
		for (const path of ['provider.authToken: is required (here, or CLOUDTEL_AUTH_TOKEN in the environment)', 'server.publicUrl:', 'server.secret:', 'campaigns[0].cron:', 'campaigns[0].property:']) {
			expect(result.stderr).toContain(path);
		}
	});

	it('--check validates a good config (secrets from the environment) and exits 0', () => {
		const result = run(['--config', 'examples/worker.config.yaml', '--check'], { CLOUDTEL_ACCOUNT_SID: 'A', CLOUDTEL_AUTH_TOKEN: 'T', CLOUDTEL_CALLBACK_SECRET: '0123456789abcdef' });
		expect(result.stderr).toBe('');
		expect(result.stdout).toMatch(/: valid; campaigns: 1, reply rules: 4$/m);
		expect(result.status).toBe(0);
	});

	it('asks for --config, and a missing file is named', () => {
		expect(run([]).stderr).toContain('cloudtel worker needs --config FILE');
		const missing = run(['--config', '/nonexistent/worker.yaml']);
		expect(missing.status).toBe(2);
		expect(missing.stderr).toContain('/nonexistent/worker.yaml');
	});
});
