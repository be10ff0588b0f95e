import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { cli, numbersCsv, writeCsv } from '../worker/harness';
import {
	freePort,
	SandboxDriver,
	TEST_TICKS_ONLY,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

/**
 * A configured campaign with variants goes on by itself: the worker waits for the decision
 * on its own clock (moved on by the test control), decides, and sends the rest. One backend
 * (SQLite): the decision's SQL is the CLI's, proven in test/integration/worker/variants.test.ts.
 */
const SECRET = 'variants-daemon-secret-0123456789';
const cleanup = cleanupAfterEach();

describe('a worker campaign with variants', () => {
	it('waits for the decision on its own, then sends the rest with the text whose replies were best', async () => {
		const sandbox = await startSandbox({ port: 0, receiptDelayMs: 600_000 });
		cleanup.push(() => sandbox.close());
		const driver = new SandboxDriver(sandbox);
		const receiver = await CallbackCatcher.start();
		cleanup.push(() => receiver.close());
		const dir = tempDir();
		writeCsv(dir, 'list.csv', numbersCsv(20));
		const port = await freePort();
		const config = writeConfig(dir, {
			provider: { baseUrl: sandbox.url },
			events: { url: `${receiver.url}/events` },
			db: 'worker.db',
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
			campaigns: [
				{
					name: 'promo',
					cron: TEST_TICKS_ONLY,
					timeZone: 'UTC',
					csv: 'list.csv',
					property: sandbox.demo.PropertySid,
					text: 'Hi {{Name}}, plain offer',
					variants: ['Hi {{Name}}, bold offer'],
					testShare: 0.5,
					decideAfter: '2h',
					rate: 0,
				},
			],
		});
		const worker = await WorkerProcess.start(config, {
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
			CLOUDTEL_CALLBACK_SECRET: SECRET,
		});
		cleanup.push(() => worker.stop('SIGKILL'));
		worker.tick('promo');
		const wait = await worker.waitFor(
			(l) => l.msg === 'campaign variant-wait',
			20_000,
			'the wait for the decision',
		);
		const run = String(wait.run);
		const out = async () =>
			(await driver.messages()).filter(
				(m) => String(m.ExternalId).startsWith(`${run}:`) && m.Direction !== 'Inbound',
			);
		const test = await out();
		const bold = test.filter((m) => String(m.ExternalId).startsWith(`${run}:v2:`));
		expect(bold.length).toBeGreaterThan(0);
		await driver.reply(bold[0].To, bold[0].From, 'Interested!');
		const db = `${dir}/worker.db`;
		await until(
			async () => {
				const s = await cli(['campaign', 'status', '--db', db, '--name', run, '--json']);
				return (JSON.parse(s.stdout) as { variants: { replies: number }[] }).variants[1].replies ===
					1
					? true
					: undefined;
			},
			20_000,
			'the reply in the ledger',
		);
		// Two hours on by the worker's clock: it decides and sends the rest by itself.
		worker.advanceClock(2 * 3600_000 + 1000);
		await worker.waitFor(
			(l) => l.msg === 'campaign summary' && l.run === run,
			20_000,
			'the run finished',
		);
		const decided = worker.logs.find((l) => l.msg === 'campaign variant-decided');
		expect(decided).toMatchObject({ winner: 2, by: 'replies', byHand: false });
		// The decision goes to n8n (the events URL) as campaign.variant_decided, once.
		const event = await until(
			() => receiver.requests.find((r) => r.body?.type === 'campaign.variant_decided'),
			20_000,
			'the campaign.variant_decided event',
		);
		expect(event.body).toMatchObject({
			id: `campaign.variant_decided:${run}`,
			campaign: 'promo',
			data: { winner: 2, by: 'replies', byHand: false, rates: [0, expect.any(Number)], run },
		});
		const all = await out();
		expect(all).toHaveLength(20);
		for (const m of all.filter((x) => !test.some((t) => t.MessageSid === x.MessageSid))) {
			expect(m.ExternalId).toMatch(new RegExp(`^${run}:v2:\\d+$`));
			expect(m.Text).toMatch(/bold offer$/);
		}
	}, 60_000);
});
