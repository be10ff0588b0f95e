import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, freePort, tempDir, WorkerProcess, writeConfig } from './harness';

const SID = '11111111-1111-4111-8111-111111111111';
const SECRETS = {
	CLOUDTEL_ACCOUNT_SID: 'A',
	CLOUDTEL_AUTH_TOKEN: 'T',
	CLOUDTEL_CALLBACK_SECRET: '0123456789abcdef',
};
const DETAIL = 'must be a two-letter country code such as AU or GB (got "ZZ")';

beforeAll(() => ensureBuilt(), 120_000);

/**
 * The engine names a bad setting by the setting; each front end by what its user wrote:
 * `campaign run` by the flag, `cloudtel worker` by the config path.
 */
describe('a bad setting is named the way it was given', () => {
	it('campaign run names the flag', () => {
		const dir = tempDir();
		writeFileSync(join(dir, 'list.csv'), 'Phone,Name\n0491570156,Ann\n');
		const result = spawnSync(
			process.execPath,
			[
				CLI,
				'campaign',
				'run',
				'--dry-run',
				'--csv',
				join(dir, 'list.csv'),
				'--text',
				'Hi {{Name}}',
				'--default-country',
				'ZZ',
				'--name',
				'zz',
			],
			{ encoding: 'utf8', cwd: dir },
		);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain(`--default-country ${DETAIL}`);
		expect(result.stderr).not.toContain('campaigns[');
	});

	it('a config campaign run by the worker names the config path, never the flag', async () => {
		const dir = tempDir();
		writeFileSync(join(dir, 'list.csv'), 'Phone,Name\n0491570156,Ann\n');
		const file = writeConfig(dir, {
			provider: { baseUrl: 'http://127.0.0.1:9' },
			db: 'worker.db',
			server: {
				publicUrl: 'https://worker.example.com',
				port: await freePort(),
				host: '127.0.0.1',
			},
			campaigns: [
				{
					name: 'good',
					cron: '0 9 * * 1',
					timeZone: 'UTC',
					property: SID,
					csv: 'list.csv',
					text: 'Hi {{Name}}',
				},
				{
					name: 'zz',
					cron: '* * * * * *',
					timeZone: 'UTC',
					property: SID,
					csv: 'list.csv',
					text: 'Hi {{Name}}',
					defaultCountry: 'ZZ',
				},
			],
		});
		const worker = await WorkerProcess.start(file, SECRETS);
		try {
			const line = await worker.waitFor(
				(l) => l.msg === 'campaign run failed',
				20_000,
				'the run of campaign zz',
			);
			expect(line).toMatchObject({
				level: 'error',
				campaign: 'zz',
				reason: `campaigns[1].defaultCountry: ${DETAIL}`,
			});
			expect(worker.text).not.toContain('--default-country');
		} finally {
			await worker.stop();
		}
	}, 40_000);
});
