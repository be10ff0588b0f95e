import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { newDatabase, sql } from '../../support/postgres/database';
import { cli } from '../worker/harness';
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

/** One backend per file (`.sqlite.test.ts`, `.postgres.test.ts`): files run side by side, each well within 60 s. */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	const DAY_MS = 86_400_000;

	let sandbox: RunningSandbox;
	let driver: SandboxDriver;
	const workers: WorkerProcess[] = [];

	beforeAll(async () => {
		await ensureBuilt();
		sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000, latencyMs: 20 });
		driver = new SandboxDriver(sandbox);
	}, 120_000);

	afterAll(async () => {
		if (process.env.DEBUG_DAEMON) for (const w of workers) console.log(w.text, w.stderr);
		await Promise.allSettled(workers.map((w) => w.stop('SIGKILL')));
		await sandbox?.close();
	});

	function numbers(n: number, from: number): string {
		let csv = 'Phone,Name\n';
		for (let i = 0; i < n; i++) csv += `+614915${from + i},N${i}\n`;
		return csv;
	}

	/** Where the worker keeps its state, and a way to change it by hand, as a person with sqlite3 or psql would. */
	const backends = [
		{
			name: 'sqlite',
			db: async (dir: string) => join(dir, 'worker.db'),
			sql: async (db: string, text: string) => {
				const d = new Database(db);
				try {
					d.exec(text);
				} finally {
					d.close();
				}
			},
		},
		{
			name: 'postgres',
			db: async () => newDatabase('deleterun'),
			sql: async (db: string, text: string) => void (await sql(db, text)),
		},
	];

	describe.each(backends.filter((b) => b.name === part))(
		'campaign delete of a cron run ($name)',
		(backend) => {
			it('leaves nothing behind: a restart does not resume it, and retention does not take a new campaign of its name', async () => {
				const dir = tempDir();
				const db = await backend.db(dir);
				writeFileSync(join(dir, 'quick.csv'), numbers(5, 72_000));
				writeFileSync(join(dir, 'slow.csv'), numbers(30, 73_000));
				const env = {
					CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
					CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
					CLOUDTEL_CALLBACK_SECRET: 'delete-secret-0123456789',
				};
				const port = await freePort();
				const config = (cron: string, extra: Record<string, unknown> = {}) =>
					writeConfig(dir, {
						provider: { baseUrl: sandbox.url },
						db,
						server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
						campaigns: [
							{
								name: 'quick',
								cron,
								csv: 'quick.csv',
								property: sandbox.demo.PropertySid,
								text: 'Hi {{Name}}',
							},
							// About 6 s a run at 5 messages a second.
							{
								name: 'slow',
								cron,
								csv: 'slow.csv',
								property: sandbox.demo.PropertySid,
								text: 'Hi {{Name}}',
								rate: 5,
							},
						],
						...extra,
					});
				const sentBy = async (run: string) =>
					(await driver.messages()).filter((m) => String(m.ExternalId).startsWith(`${run}:`))
						.length;

				let worker = await WorkerProcess.start(config(TEST_TICKS_ONLY), env);
				workers.push(worker);
				// Two ticks a second apart: two quick runs, and a slow one that is still sending.
				const first = new Date(Math.floor(Date.now() / 1000) * 1000);
				worker.tick('quick', first);
				worker.tick('slow', first);
				const quick = await worker.waitFor(
					(l) => l.msg === 'campaign summary' && l.campaign === 'quick' && l.stop === 'finished',
					15_000,
					'a finished quick run',
				);
				const slow = await worker.waitFor(
					(l) => l.msg === 'campaign start' && String(l.run).startsWith('slow-'),
					15_000,
					'a slow run',
				);
				await worker.tickAfterRun('quick', new Date(first.getTime() + 1000));
				await until(
					() => worker.count((l) => l.msg === 'campaign summary' && l.campaign === 'quick') >= 2,
					15_000,
					'a second quick run',
				);
				await until(
					async () => (await sentBy(slow.run as string)) >= 3,
					15_000,
					'some of the slow run sent',
				);
				expect(await worker.stop('SIGTERM')).toBe(0);
				expect(
					worker.count(
						(l) => l.msg === 'campaign summary' && l.run === slow.run && l.stop === 'interrupted',
					),
				).toBe(1);
				const slowSent = await sentBy(slow.run as string);
				expect(slowSent).toBeLessThan(30);

				for (const run of [quick.run as string, slow.run as string]) {
					const deleted = await cli(['campaign', 'delete', '--db', db, '--name', run, '--force']);
					expect(deleted.code, deleted.stderr).toBe(0);
				}
				// A hundred days go by; then someone starts a campaign of its own under the quick run's name.
				await backend.sql(
					db,
					`UPDATE campaign_runs SET started_at = started_at - ${100 * DAY_MS}, finished_at = finished_at - ${100 * DAY_MS}`,
				);
				writeFileSync(join(dir, 'own.csv'), numbers(4, 74_000));
				const own = await cli(
					[
						'campaign',
						'run',
						'--db',
						db,
						'--name',
						quick.run as string,
						'--csv',
						join(dir, 'own.csv'),
						'--text',
						'Mine',
						'--property',
						sandbox.demo.PropertySid,
						'--rate',
						'0',
					],
					{
						...env,
						CLOUDTEL_BASE_URL: sandbox.url,
					},
				);
				expect(own.code, own.stderr).toBe(0);

				// The cron far off: anything sent now would be a resume. The worker resumes what it
				// finds unfinished before it logs that it has started, so the count is final then.
				worker = await WorkerProcess.start(config(TEST_TICKS_ONLY, { retentionDays: 30 }), env);
				workers.push(worker);
				expect(worker.count((l) => l.msg === 'campaign run resumed')).toBe(0);
				const pruned = await worker.waitFor(
					(l) => l.msg === 'pruned',
					10_000,
					'the retention pass at start',
				);
				expect(pruned.runs).toBeGreaterThan(0);
				expect(await sentBy(slow.run as string)).toBe(slowSent);
				const status = await cli([
					'campaign',
					'status',
					'--db',
					db,
					'--name',
					quick.run as string,
					'--json',
				]);
				expect(status.code, status.stderr).toBe(0);
				expect(JSON.parse(status.stdout)).toMatchObject({
					total: 4,
					rows: { accepted: 4 },
					spec: { text: 'Mine' },
				});
				expect(await worker.stop('SIGTERM')).toBe(0);
			}, 90_000);
		},
	);
}
