import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
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

/** Retention in a running worker, in parts: one backend each. */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	const DAY_MS = 86_400_000;
	const RECIPIENTS = ['+61491576001', '+61491576002', '+61491576003'];

	let sandbox: RunningSandbox;
	let driver: SandboxDriver;
	let catcher: CallbackCatcher;
	const workers: WorkerProcess[] = [];

	beforeAll(async () => {
		await ensureBuilt();
		sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
		driver = new SandboxDriver(sandbox);
		catcher = await CallbackCatcher.start();
	}, 120_000);

	afterAll(async () => {
		if (process.env.DEBUG_DAEMON) for (const w of workers) console.log(w.text, w.stderr);
		await Promise.allSettled(workers.map((w) => w.stop('SIGKILL')));
		await Promise.allSettled([sandbox?.close(), catcher?.close()]);
	});

	/** The worker's store, read and changed by hand, as a person with sqlite3 or psql would. */
	const backends = [
		{
			name: 'sqlite',
			db: async (dir: string) => join(dir, 'worker.db'),
			query: async (db: string, text: string): Promise<Record<string, unknown>[]> => {
				const d = new Database(db);
				try {
					const statement = d.prepare(text);
					return statement.reader
						? (statement.all() as Record<string, unknown>[])
						: (statement.run(), []);
				} finally {
					d.close();
				}
			},
		},
		{
			name: 'postgres',
			db: async () => newDatabase('retention'),
			query: (db: string, text: string) => sql(db, text),
		},
	];

	describe.each(backends.filter((b) => b.name === part))(
		'retention in a running worker ($name)',
		(backend) => {
			it('prunes, at start, finished runs with their rows, processed events and settled forwards older than retentionDays; keeps recent ones, unfinished runs and forwards still to send', async () => {
				const dir = tempDir();
				const db = await backend.db(dir);
				const query = (text: string) => backend.query(db, text);
				writeFileSync(
					join(dir, 'news.csv'),
					`Phone,Name\n${RECIPIENTS.map((r, i) => `${r},N${i}`).join('\n')}\n`,
				);
				let slow = 'Phone,Name\n';
				for (let i = 0; i < 20; i++) slow += `+614915770${String(i).padStart(2, '0')},S${i}\n`;
				writeFileSync(join(dir, 'slow.csv'), slow);
				const port = await freePort();
				const dead = `http://127.0.0.1:${await freePort()}/down`;
				const env = {
					CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
					CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
					CLOUDTEL_CALLBACK_SECRET: 'retention-secret-0123456789',
				};
				const config = (cron: string, extra: Record<string, unknown> = {}) =>
					writeConfig(dir, {
						provider: { baseUrl: sandbox.url },
						db,
						server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
						// A forward that fails waits a minute before its next attempt: it stays pending.
						outbox: { maxAttempts: 50, backoffMs: 60_000, maxBackoffMs: 60_000 },
						campaigns: [
							{
								name: 'news',
								cron,
								csv: 'news.csv',
								property: sandbox.demo.PropertySid,
								text: 'News for {{Name}}',
								receipts: true,
							},
							// About 10 s a run at 2 messages a second: a stop cuts it short.
							{
								name: 'slow',
								cron,
								csv: 'slow.csv',
								property: sandbox.demo.PropertySid,
								text: 'Hi {{Name}}',
								rate: 2,
							},
						],
						replies: [
							{ name: 'down', match: { keyword: 'DOWN' }, actions: [{ type: 'post', url: dead }] },
							{ name: 'rest', actions: [{ type: 'post', url: `${catcher.url}/replies` }] },
						],
						...extra,
					});

				let worker = await WorkerProcess.start(config(TEST_TICKS_ONLY), env);
				workers.push(worker);
				// Two ticks a second apart: two news runs, and a slow one still sending at the stop.
				const first = new Date(Math.floor(Date.now() / 1000) * 1000);
				worker.tick('news', first);
				worker.tick('slow', first);
				const finished = () =>
					worker.logs
						.filter(
							(l) => l.msg === 'campaign summary' && l.campaign === 'news' && l.stop === 'finished',
						)
						.map((l) => l.run as string);
				await until(() => finished().length >= 1, 15_000, 'a finished news run');
				await worker.tickAfterRun('news', new Date(first.getTime() + 1000));
				const [oldRun, newRun] = await until(
					() => finished().length >= 2 && finished(),
					15_000,
					'two finished news runs',
				);
				const slowRun = (
					await worker.waitFor(
						(l) => l.msg === 'campaign start' && String(l.run).startsWith('slow-'),
						15_000,
						'a slow run',
					)
				).run as string;
				// Receipts of both news runs stored and processed.
				const events = async (run: string) =>
					(
						await query(`SELECT processed_at FROM callback_events WHERE payload LIKE '%"${run}:%'`)
					).filter((e) => e.processed_at !== null).length;
				await until(
					async () => (await events(oldRun)) === 3 && (await events(newRun)) === 3,
					15_000,
					'the receipts of both runs',
				);
				// Replies to the leased number the old run sent from (the sandbox is shared by both backends' tests).
				const from = (await driver.messages()).find((m) =>
					String(m.ExternalId).startsWith(`${oldRun}:`),
				).From as string;
				const oldReply = await driver.reply(RECIPIENTS[0], from, 'old news, thanks');
				const downReply = await driver.reply(RECIPIENTS[1], from, 'DOWN with this');
				const forwards = async () => query(`SELECT state, payload FROM forwards ORDER BY id`);
				await until(
					async () => {
						const f = await forwards();
						return (
							f.some((x) => x.state === 'sent') &&
							f.some((x) => x.state === 'pending' && String(x.payload).includes(downReply)) &&
							f
						);
					},
					15_000,
					'one forward sent, one waiting to be tried again',
				);
				await until(
					() => catcher.requests.some((r) => r.body?.MessageSid === oldReply),
					10_000,
					'the POST of the old reply',
				);
				await until(
					async () =>
						(await driver.messages()).some((m) => String(m.ExternalId).startsWith(`${slowRun}:`)),
					15_000,
					'the slow run sending',
				);
				expect(await worker.stop('SIGTERM')).toBe(0);
				expect(
					worker.count(
						(l) => l.msg === 'campaign summary' && l.run === slowRun && l.stop === 'interrupted',
					),
				).toBe(1);

				// A hundred days go by for the old run, its receipts, the slow run cut short and both forwards.
				const age = `- ${100 * DAY_MS}`;
				await query(
					`UPDATE campaign_runs SET started_at = started_at ${age}, finished_at = finished_at ${age} WHERE run IN ('${oldRun}', '${slowRun}')`,
				);
				// The old run's receipts, and the replies to its messages.
				const aged = Number(
					(
						await query(
							`SELECT COUNT(*) AS n FROM callback_events WHERE payload LIKE '%"${oldRun}:%'`,
						)
					)[0].n,
				);
				expect(aged).toBeGreaterThanOrEqual(3);
				await query(
					`UPDATE callback_events SET received_at = received_at ${age}, processed_at = processed_at ${age} WHERE payload LIKE '%"${oldRun}:%'`,
				);
				await query(
					`UPDATE forwards SET created_at = created_at ${age}, updated_at = updated_at ${age}, next_at = next_at ${age} + ${3_600_000 * 24 * 365}`,
				);
				const eventsBefore = Number(
					(await query(`SELECT COUNT(*) AS n FROM callback_events`))[0].n,
				);

				const restarted = Date.now();
				worker = await WorkerProcess.start(config(TEST_TICKS_ONLY, { retentionDays: 30 }), env);
				workers.push(worker);
				const pruned = await worker.waitFor(
					(l) => l.msg === 'pruned',
					10_000,
					'the retention pass at start',
				);
				expect(pruned).toMatchObject({
					part: 'retention',
					runs: 1,
					events: aged,
					forwards: 1,
					retentionDays: 30,
				});
				// The unfinished run is resumed, however old, and finishes.
				await worker.waitFor(
					(l) => l.msg === 'campaign summary' && l.run === slowRun && l.stop === 'finished',
					30_000,
					'the slow run resumed to its end',
				);
				// A reply to the old run's message, after its run is gone: forwarded all the same, and kept.
				const recentReply = await driver.reply(RECIPIENTS[2], from, 'recent news');
				await until(
					() => catcher.requests.some((r) => r.body?.MessageSid === recentReply),
					10_000,
					'the POST of the recent reply',
				);

				const status = (name: string) =>
					cli(['campaign', 'status', '--db', db, '--name', name, '--json']);
				expect((await status(oldRun)).stderr).toMatch(new RegExp(`no campaign named ${oldRun}`));
				expect(JSON.parse((await status(newRun)).stdout)).toMatchObject({
					total: 3,
					rows: { accepted: 3 },
					delivery: { delivered: 3 },
				});
				expect(JSON.parse((await status(slowRun)).stdout)).toMatchObject({
					total: 20,
					rows: { accepted: 20 },
				});
				expect((await query(`SELECT run FROM campaign_runs WHERE run = '${oldRun}'`)).length).toBe(
					0,
				);
				expect(
					(await query(`SELECT run FROM campaign_runs WHERE run IN ('${newRun}', '${slowRun}')`))
						.length,
				).toBe(2);
				// Nothing processed is older than 30 days; the recent reply (to an old run's message) is kept.
				expect(
					await query(
						`SELECT event_key FROM callback_events WHERE received_at < ${Date.now() - 30 * DAY_MS}`,
					),
				).toEqual([]);
				expect(await events(newRun)).toBe(3);
				expect(
					await query(
						`SELECT event_key FROM callback_events WHERE payload LIKE '%${recentReply}%'`,
					),
				).toHaveLength(1);
				expect(
					Number(
						(
							await query(
								`SELECT COUNT(*) AS n FROM callback_events WHERE received_at < ${restarted}`,
							)
						)[0].n,
					),
				).toBe(eventsBefore - aged);
				const left = await forwards();
				expect(left.some((f) => String(f.payload).includes(oldReply))).toBe(false);
				expect(left.find((f) => String(f.payload).includes(downReply))?.state).toBe('pending');
				expect(left.find((f) => String(f.payload).includes(recentReply))?.state).toBe('sent');
				expect(await worker.stop('SIGTERM')).toBe(0);
			}, 120_000);
		},
	);
}
