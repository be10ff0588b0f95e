// `cloudtel campaign run --config FILE --name NAME`: a config campaign's run sent now by the
// CLI, as the worker's cron tick would send it, against a real sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackCatcher } from '../../support/callbackCatcher';
import type { RunningSandbox } from '../../../sandbox/src';
import {
	cli,
	envFor,
	numbersCsv,
	sandboxMessages,
	startCli,
	tempDir,
	waitFor,
	withSandbox,
	writeCsv,
} from './harness';

const SECRET = 'run-now-secret-0123456789';
let sandbox: RunningSandbox;
let catcher: CallbackCatcher;
let env: Record<string, string>;
let dir: string;
let config: string;

beforeAll(async () => {
	sandbox = await withSandbox({ receiptDelayMs: 0 });
	catcher = await CallbackCatcher.start();
	env = envFor(sandbox);
	dir = tempDir();
	writeCsv(dir, 'five.csv', numbersCsv(5));
	writeCsv(dir, 'slow.csv', numbersCsv(40, 100));
	writeCsv(dir, 'bad.csv', 'Phone,Name\n+61410000001,A\n');
	const campaign = (name: string, csv: string, extra = '') =>
		`  - name: ${name}\n    cron: '0 9 * * 1'\n    timeZone: Australia/Sydney\n    csv: ./${csv}\n    property: ${sandbox.demo.PropertySid}\n    text: 'Hi {{Name}}'\n    receipts: true\n${extra}`;
	config = join(dir, 'worker.yaml');
	writeFileSync(
		config,
		`db: ${join(dir, 'ledger.db')}\nserver:\n  publicUrl: ${catcher.url}\n  secret: ${SECRET}\ncampaigns:\n` +
			campaign('weekly', 'five.csv') +
			campaign('slow', 'slow.csv', '    rate: 4\n    batchSize: 1\n') +
			campaign('broken', 'bad.csv', "    text: 'Hi {{Surname}}'\n").replace(
				"    text: 'Hi {{Name}}'\n",
				'',
			),
	);
});

afterAll(async () => {
	await sandbox?.close();
	await catcher?.close();
});

describe('campaign run --config FILE --name NAME', () => {
	it('sends one run now, named as a tick names it, each row once, receipts to the config worker', async () => {
		const r = await cli(['campaign', 'run', '--config', config, '--name', 'weekly'], env);
		expect(r.code, r.stderr).toBe(0);
		const run = /^(weekly-\d{8}T\d{6}Z): finished; /.exec(r.stdout)?.[1];
		expect(run, r.stdout).toBeDefined();
		const sent = (await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith(run!));
		expect(sent.map((m) => m.To).sort()).toEqual(
			numbersCsv(5)
				.trim()
				.split('\n')
				.slice(1)
				.map((l) => l.split(',')[0])
				.sort(),
		);
		// The callback URLs the worker's tick gives: the config's publicUrl and secret.
		await waitFor(
			() => catcher.requests.filter((q) => q.path === `/callbacks/${SECRET}/receipts`).length >= 5,
		);
		const status = await cli([
			'campaign',
			'status',
			'--name',
			'weekly',
			'--db',
			join(dir, 'ledger.db'),
		]);
		expect(status.stdout).toContain(`showing the latest, ${run}`);
	});

	it('refuses a run while one of the campaign is not finished, naming it', async () => {
		const first = startCli(['campaign', 'run', '--config', config, '--name', 'slow'], env);
		await waitFor(async () =>
			(await sandboxMessages(sandbox)).some((m) => m.ExternalId?.startsWith('slow-')),
		);
		first.child.kill('SIGINT');
		const cut = await first.done;
		expect(cut.code, cut.stderr).toBe(130);
		const run = /^(slow-\d{8}T\d{6}Z): interrupted; a worker on this ledger resumes it/.exec(
			cut.stdout,
		)?.[1];
		expect(run, cut.stdout).toBeDefined();
		const again = await cli(['campaign', 'run', '--config', config, '--name', 'slow'], env);
		expect(again.code).toBe(1);
		expect(again.stderr).toContain(`slow's run ${run} is not finished`);
	});

	it('refuses an unknown name, listing the config campaigns, and a CSV its settings do not fit', async () => {
		const unknown = await cli(['campaign', 'run', '--config', config, '--name', 'monthly'], env);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain(
			`${config} has no campaign named "monthly"; its campaigns: weekly, slow, broken`,
		);
		const broken = await cli(['campaign', 'run', '--config', config, '--name', 'broken'], env);
		expect(broken.code).toBe(2);
		expect(broken.stderr).toMatch(
			/^cloudtel: the config .* is not valid:\n {2}campaigns\[2\].*Surname/,
		);
	});
});
