import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { newDatabase, sql } from '../../support/postgres/database';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	TEST_TICKS_ONLY,
	until,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';
import { numbersCsv, writeCsv } from '../worker/harness';

/**
 * A variant campaign's run shared by two workers on one Postgres (the store is what this
 * is about: Postgres only, SQLite has one worker): both wait for the decision, both reach it
 * at once, and it is made once: one decision row, one event, no row sent twice.
 */
const SECRET = 'variants-pg-secret-0123456789';
const ROWS = 60;

let sandbox: RunningSandbox | undefined;
let receiver: CallbackCatcher | undefined;
const workers: WorkerProcess[] = [];

afterAll(async () => {
	await Promise.allSettled(workers.map((w) => w.stop('SIGKILL')));
	await Promise.allSettled([sandbox?.close(), receiver?.close()]);
});

describe('a variant campaign on two workers sharing one Postgres', () => {
	it('decides once and sends every row once, the rest with the winner', async () => {
		await ensureBuilt();
		sandbox = await startSandbox({ port: 0, receiptDelayMs: 600_000 });
		const driver = new SandboxDriver(sandbox);
		receiver = await CallbackCatcher.start();
		const db = await newDatabase('variants');
		const dir = tempDir();
		writeCsv(dir, 'list.csv', numbersCsv(ROWS, 3000));
		const ports = [await freePort(), await freePort()];
		const configs = ports.map((port, i) =>
			writeConfig(
				dir,
				{
					provider: { baseUrl: sandbox!.url },
					events: { url: `${receiver!.url}/events` },
					db,
					// Replies come to the first: one public address, as behind one name.
					server: { publicUrl: `http://127.0.0.1:${ports[0]}`, port, host: '127.0.0.1' },
					campaigns: [
						{
							name: 'promo',
							cron: TEST_TICKS_ONLY,
							timeZone: 'UTC',
							csv: 'list.csv',
							property: sandbox!.demo.PropertySid,
							text: 'Hi {{Name}}, plain offer',
							variants: ['Hi {{Name}}, bold offer'],
							testShare: 0.5,
							decideAfter: '2h',
							rate: 0,
							batchSize: 5,
						},
					],
				},
				`worker${i}.config.yaml`,
			),
		);
		const env = {
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
			CLOUDTEL_CALLBACK_SECRET: SECRET,
		};
		for (const config of configs) workers.push(await WorkerProcess.start(config, env));
		// The shared cron's tick, on both.
		const at = new Date(Math.floor(Date.now() / 1000) * 1000);
		for (const w of workers) w.tick('promo', at);
		await Promise.all(
			workers.map((w) =>
				w.waitFor((l) => l.msg === 'campaign variant-wait', 30_000, 'the wait for the decision'),
			),
		);
		const run = String(workers[0].logs.find((l) => l.msg === 'campaign variant-wait')!.run);
		const out = async () =>
			(await driver.messages()).filter(
				(m) => String(m.ExternalId).startsWith(`${run}:`) && m.Direction !== 'Inbound',
			);
		const test = await out();
		const bold = test.filter((m) => String(m.ExternalId).startsWith(`${run}:v2:`));
		expect(bold.length).toBeGreaterThan(0);
		await driver.reply(bold[0].To, bold[0].From, 'Interested!');
		await until(
			async () =>
				Number(
					(
						await sql<{ n: string }>(db, `SELECT COUNT(*) AS n FROM replies WHERE campaign = $1`, [
							run,
						])
					)[0].n,
				) === 1 || undefined,
			20_000,
			'the reply in the ledger',
		);

		// Two hours on by both clocks at once: both reach the decision together.
		for (const w of workers) w.advanceClock(2 * 3600_000 + 1000);
		await Promise.all(
			workers.map((w) =>
				w.waitFor(
					(l) => l.msg === 'campaign summary' && l.run === run,
					30_000,
					'the run finished on both',
				),
			),
		);
		expect(await sql(db, `SELECT campaign, winner, winner_by FROM variant_decisions`)).toEqual([
			{ campaign: run, winner: 2, winner_by: 'replies' },
		]);
		const decided = workers.flatMap((w) =>
			w.logs.filter((l) => l.msg === 'campaign variant-decided'),
		);
		expect(decided).toHaveLength(1);
		// One event queued; once every forward is out, the receiver has all there is.
		expect(
			await sql(
				db,
				`SELECT event_key FROM forwards WHERE event_key LIKE 'campaign.variant_decided:%'`,
			),
		).toHaveLength(1);
		await until(
			async () =>
				Number(
					(
						await sql<{ n: string }>(db, `SELECT COUNT(*) AS n FROM forwards WHERE state <> 'sent'`)
					)[0].n,
				) === 0 || undefined,
			30_000,
			'every event out',
		);
		expect(
			receiver.requests.filter((r) => r.body?.type === 'campaign.variant_decided'),
		).toHaveLength(1);

		const all = await out();
		expect(all).toHaveLength(ROWS);
		expect(new Set(all.map((m) => m.To)).size).toBe(ROWS);
		for (const m of all.filter((x) => !test.some((t) => t.MessageSid === x.MessageSid))) {
			expect(m.ExternalId).toMatch(new RegExp(`^${run}:v2:\\d+$`));
			expect(m.Text).toMatch(/bold offer$/);
		}
	}, 60_000);
});
