import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { recipients } from '../api/apiHarness';
import { apiWorkers } from '../api/apiRig';

// Postgres only: several worker processes share a store, and so a cap, only there.
const cleanup = cleanupAfterEach();
const [, postgres] = storeBackends();

describe('a spend cap of an API campaign sent by two worker processes on one Postgres', () => {
	it('together they never pass it; a higher cap given to either sends the rest, nobody twice', async () => {
		// Answers take a moment, so both workers have chunks on their way when the cap nears.
		const { sandbox, driver, workers, call } = await apiWorkers(postgres, cleanup, 2, {
			sandbox: { latencyMs: 20 },
		});
		const state = async () => (await call(1, 'GET', '/campaigns/capped')).body.campaign;
		const sent = async () =>
			(await driver.messages()).filter((m) => String(m.ExternalId).startsWith('capped:'));

		// One segment a message at 0.01: 0.75 pays for 75 of the 200 (paced, so both have chunks
		// on their way when it nears; the list is only as long as that needs).
		const settings = {
			property: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			rate: 40,
			batchSize: 7,
			pricePerSegment: 0.01,
			maxCost: 0.75,
		};
		expect((await call(0, 'PUT', '/campaigns/capped', settings)).status).toBe(201);
		for (let p = 1; p <= 2; p++)
			expect(
				(
					await call(p % 2, 'PUT', `/campaigns/capped/pages/${p}`, {
						recipients: recipients((p - 1) * 100, 100),
					})
				).status,
			).toBe(200);
		expect((await call(0, 'POST', '/campaigns/capped/start', { pages: 2 })).status).toBe(202);
		await until(async () => (await state()).state === 'paused', 60_000, 'paused by the cap');
		// Chunks on their way when the cap paused it settle before a run stops: both runs' ends.
		await until(
			() =>
				workers.every((w) =>
					w.count((l) => l.campaign === 'capped' && l.msg === 'campaign summary'),
				),
			20_000,
			'both runs stopped',
		);
		expect((await state()).counts).toMatchObject({ accepted: 75, pending: 125, uncertain: 0 });
		const capped = await sent();
		expect(capped).toHaveLength(75);
		expect(new Set(capped.map((m) => m.ExternalId)).size).toBe(75);
		// Both took part: each logged the run's start.
		for (const w of workers)
			expect(w.count((l) => l.campaign === 'capped' && l.msg === 'campaign start')).toBeGreaterThan(
				0,
			);

		// The cap raised through the other worker: the rest goes, each row once.
		expect((await call(1, 'PUT', '/campaigns/capped', { ...settings, maxCost: 10 })).status).toBe(
			200,
		);
		await until(async () => (await state()).state === 'finished', 60_000, 'the rest sent');
		expect((await state()).counts).toMatchObject({ accepted: 200, pending: 0, uncertain: 0 });
		const all = await sent();
		expect(all).toHaveLength(200);
		expect(new Set(all.map((m) => m.ExternalId)).size).toBe(200);
	}, 120_000);
});
