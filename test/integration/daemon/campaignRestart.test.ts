import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	TEST_TICKS_ONLY,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const ROWS = 30;

let sandbox: RunningSandbox;
let driver: SandboxDriver;
let worker: WorkerProcess | undefined;
let dir: string;
let config: string;
let env: Record<string, string>;

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000, latencyMs: 20 });
	driver = new SandboxDriver(sandbox);
	dir = tempDir();
	const port = await freePort();
	let csv = 'Phone,Name\n';
	for (let i = 0; i < ROWS; i++) csv += `+614915703${String(i).padStart(2, '0')},N${i}\n`;
	writeFileSync(join(dir, 'list.csv'), csv);
	env = {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: 'restart-secret-0123456789',
	};
	config = writeConfig(dir, {
		db: 'worker.db',
		server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
		// A run takes about 3 s at 10 messages per second; the test fires a second tick during it.
		campaigns: [
			{
				name: 'slow',
				cron: TEST_TICKS_ONLY,
				csv: 'list.csv',
				property: sandbox.demo.PropertySid,
				text: 'Hi {{Name}}',
				rate: 10,
			},
		],
	});
	worker = await WorkerProcess.start(config, env);
}, 120_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await sandbox?.close();
});

describe('campaign runs under the daemon', () => {
	it('skips ticks while a run is going; SIGTERM stops it cleanly; the next start resumes it with no row sent twice or lost', async () => {
		const first = new Date(Math.floor(Date.now() / 1000) * 1000);
		worker!.tick('slow', first);
		const started = await worker!.waitFor(
			(l) => l.msg === 'campaign start',
			10_000,
			'a run to start',
		);
		const run = started.run as string;
		worker!.tick('slow', new Date(first.getTime() + 1000));
		await worker!.waitFor(
			(l) => l.msg === 'campaign tick skipped: the previous run is still going',
			10_000,
			'a skipped tick',
		);
		const ours = async () =>
			(await driver.messages()).filter((m) => String(m.ExternalId).startsWith(`${run}:`));
		await until(async () => (await ours()).length >= 5, 10_000, 'some messages');

		expect(await worker!.stop('SIGTERM')).toBe(0);
		expect(
			worker!.count(
				(l) => l.msg === 'campaign summary' && l.run === run && l.stop === 'interrupted',
			),
		).toBe(1);
		const before = (await ours()).length;
		expect(before).toBeLessThan(ROWS);

		worker = await WorkerProcess.start(config, env);
		await worker.waitFor(
			(l) => l.msg === 'campaign run resumed' && l.run === run,
			5000,
			'the resume',
		);
		const summary = await worker.waitFor(
			(l) => l.msg === 'campaign summary' && l.run === run,
			15_000,
			'the resumed run to finish',
		);
		expect(summary).toMatchObject({ stop: 'finished', total: ROWS });
		expect((summary.rows as Record<string, number>).accepted).toBe(ROWS);

		const ids = (await ours()).map((m) => m.ExternalId);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toHaveLength(ROWS);
		const ledger = new SqliteLedger(join(dir, 'worker.db'));
		try {
			expect((await ledger.counts(run)).rows.accepted).toBe(ROWS);
		} finally {
			await ledger.close();
		}
		expect(await worker.stop('SIGTERM')).toBe(0);
	});
});
