import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../support/freshBuild';
import { loadWorkerConfigForCheck } from '../../../worker/src/config/loadWorkerConfig';

const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'worker/bin/cloudtel.js');

/** A shell where none of cloudtel's variables is set, as a newcomer's or an admin's is. */
function check(config: string, env: Record<string, string> = {}) {
	const clean = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !k.startsWith('CLOUDTEL_')),
	);
	return spawnSync(process.execPath, [CLI, 'worker', '--config', config, '--check'], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { ...clean, ...env },
	});
}

beforeAll(() => ensureBuilt(), 600_000);

describe('the shipped example configs pass --check', () => {
	it('examples/worker.config.yaml as shipped, naming what the environment must still supply', () => {
		const result = check('examples/worker.config.yaml');
		expect(result.stderr).toBe('');
		expect(result.stdout).toMatch(
			/^examples\/worker\.config\.yaml: valid; campaigns: 1, reply rules: 4$/m,
		);
		expect(result.stdout).toContain(
			'to start, the worker needs these from its environment, not set in this one: provider.accountSid (CLOUDTEL_ACCOUNT_SID), provider.authToken (CLOUDTEL_AUTH_TOKEN), server.secret (CLOUDTEL_CALLBACK_SECRET)',
		);
		expect(result.status).toBe(0);
	});

	it("examples/worker.config.yaml keeps the CLI's ledger: CLOUDTEL_DB, the variable the CLI reads", () => {
		const ledger = join(ROOT, 'shared', 'cloudtel.db');
		for (const file of ['examples/worker.config.yaml', 'examples/quickstart.config.yaml'])
			expect(loadWorkerConfigForCheck(join(ROOT, file), { CLOUDTEL_DB: ledger }).config.db).toBe(
				ledger,
			);
	});

	it("examples/quickstart.config.yaml with the quick start's environment, and nothing left to name", () => {
		const result = check('examples/quickstart.config.yaml', {
			CLOUDTEL_BASE_URL: 'http://127.0.0.1:4010',
			CLOUDTEL_ACCOUNT_SID: 'AC1',
			CLOUDTEL_AUTH_TOKEN: 'token',
			CLOUDTEL_CALLBACK_SECRET: '0123456789abcdef',
			CLOUDTEL_DB: join(ROOT, 'never-opened.db'),
		});
		expect(result.stderr).toBe('');
		expect(result.stdout).toBe(
			'examples/quickstart.config.yaml: valid; campaigns: 0, reply rules: 1\n',
		);
		expect(result.status).toBe(0);
	});

	it('every example config and CSV ships in the worker package (worker/dist/examples), the cron example passing --check there', () => {
		const shipped = readdirSync(join(ROOT, 'worker/dist/examples'));
		const examples = readdirSync(join(ROOT, 'examples')).filter((f) => /\.(ya?ml|csv)$/.test(f));
		expect(shipped.sort()).toEqual(examples.sort());
		// weekly-offer's csv is read from its own folder: the packaged copy finds the packaged CSV.
		const result = check(join(ROOT, 'worker/dist/examples/weekly-offer.config.yaml'));
		expect(result.stderr).toBe('');
		expect(result.stdout).toMatch(
			/weekly-offer\.config\.yaml: valid; campaigns: 1, reply rules: 2$/m,
		);
		expect(result.status).toBe(0);
	});

	it('a start without the secret still refuses, naming the variable', () => {
		const result = spawnSync(
			process.execPath,
			[CLI, 'worker', '--config', 'examples/quickstart.config.yaml'],
			{
				cwd: ROOT,
				encoding: 'utf8',
				env: {
					...Object.fromEntries(
						Object.entries(process.env).filter(([k]) => !k.startsWith('CLOUDTEL_')),
					),
					CLOUDTEL_BASE_URL: 'http://127.0.0.1:4010',
					CLOUDTEL_ACCOUNT_SID: 'AC1',
					CLOUDTEL_AUTH_TOKEN: 'token',
				},
			},
		);
		expect(result.stderr).toContain(
			'server.secret: is required (here, or CLOUDTEL_CALLBACK_SECRET in the environment)',
		);
		expect(result.status).toBe(2);
	});
});
