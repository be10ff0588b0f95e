import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { TEST_TICKS_ONLY, tempDir, until } from '../daemon/harness';
import { recipients } from '../api/apiHarness';
import { apiWorkerRig } from '../api/apiRig';
import { numbersCsv, sandboxMessages, writeCsv } from '../worker/harness';

const cleanup = cleanupAfterEach();
// The day's spend is kept as the campaign's is (spendCap.cli.test.ts runs both backends): SQLite here.
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');
const DAY_MS = 24 * 3600_000;

describe.each(sqlite)('the daily spend cap in the worker ($name)', (backend) => {
	it('pauses a cron and an API campaign with daily-spend-cap; the next day (by its clock) both go on by themselves', async () => {
		const csv = writeCsv(tempDir(), 'list.csv', numbersCsv(7, 700));
		const { sandbox, start, call } = await apiWorkerRig(backend, cleanup, {
			config: (s) => ({
				// One segment a message at 0.01: a day pays for 5 messages across campaigns.
				limits: { dailyMaxCost: 0.05, pricePerSegment: 0.01, timeZone: 'UTC' },
				campaigns: [
					{
						name: 'daily',
						cron: TEST_TICKS_ONLY,
						timeZone: 'UTC',
						csv,
						property: s.demo.PropertySid,
						text: 'Hi {{Name}}',
						rate: 0,
						batchSize: 2,
					},
				],
			}),
		});
		const worker = await start();
		const sent = async (prefix: RegExp) =>
			(await sandboxMessages(sandbox)).filter((m) => prefix.test(m.ExternalId ?? ''));

		worker.tick('daily');
		const paused = await worker.waitFor(
			(l) => l.msg === 'campaign paused' && l.pausedBy === 'daily-spend-cap',
			20_000,
			'the cron run paused by the daily cap',
		);
		const run = String(paused.run);
		expect(await sent(new RegExp(`^${run}:`))).toHaveLength(5);

		const settings = { property: sandbox.demo.PropertySid, text: 'Hi', rate: 0 };
		expect((await call('PUT', '/campaigns/later', settings)).status).toBe(201);
		expect(
			(await call('PUT', '/campaigns/later/pages/1', { recipients: recipients(0, 3) })).status,
		).toBe(200);
		expect((await call('POST', '/campaigns/later/start', { pages: 1 })).status).toBe(202);
		await until(
			async () => (await call('GET', '/campaigns/later')).body.campaign.state === 'paused',
			20_000,
			'the API campaign paused by the daily cap',
		);
		expect(await sent(/^later:/)).toHaveLength(0);

		// The next day by the worker's clock: the day's 5 pay for the cron run's 2 and the API's 3.
		worker.advanceClock(DAY_MS);
		await worker.waitFor(
			(l) => l.msg === 'campaign summary' && l.run === run,
			20_000,
			'the cron run finished',
		);
		await until(
			async () => (await call('GET', '/campaigns/later')).body.campaign.state === 'finished',
			20_000,
			'the API campaign finished',
		);
		const cron = await sent(new RegExp(`^${run}:`));
		expect(cron).toHaveLength(7);
		expect(new Set(cron.map((m) => m.ExternalId)).size).toBe(7);
		expect(await sent(/^later:/)).toHaveLength(3);
		expect((await call('GET', '/campaigns/later')).body.campaign.counts).toMatchObject({
			accepted: 3,
			pending: 0,
		});
	});
});
