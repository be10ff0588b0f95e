import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { recipients } from '../api/apiHarness';
import { apiWorkerRig } from '../api/apiRig';
import { sandboxMessages } from '../worker/harness';

const cleanup = cleanupAfterEach();
// The cap's store is proven on both backends by spendCap.cli.test.ts: one here.
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

describe.each(sqlite)('guardrails of an API campaign ($name)', (backend) => {
	it('countries, maxCost and pricePerSegment: the preview counts them, the run pauses at the cap, a GB number is never sent', async () => {
		const { sandbox, start, call } = await apiWorkerRig(backend, cleanup);
		await start();
		const refused = await call('PUT', '/campaigns/wrong', {
			property: sandbox.demo.PropertySid,
			text: 'Hi',
			maxCost: 1,
		});
		expect(refused.status).toBe(400);
		expect(JSON.stringify(refused.body)).toMatch(/maxCost needs pricePerSegment/);
		const badRate = await call('PUT', '/campaigns/wrong', {
			property: sandbox.demo.PropertySid,
			text: 'Hi',
			maxFailureRate: 1.5,
		});
		expect(badRate.status).toBe(400);
		expect(JSON.stringify(badRate.body)).toMatch(/"field":"maxFailureRate"/);

		const settings = {
			property: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			batchSize: 2,
			rate: 0,
			countries: ['au'],
			// One segment a message at 0.01: 0.03 pays for 3.
			pricePerSegment: 0.01,
			maxCost: 0.03,
			maxFailureRate: 0.5,
		};
		expect((await call('PUT', '/campaigns/capped', settings)).status).toBe(201);
		const list = [...recipients(0, 5), { phone: '+447400123456', first_name: 'Gb' }];
		expect((await call('PUT', '/campaigns/capped/pages/1', { recipients: list })).status).toBe(200);
		const preview = await call('GET', '/campaigns/capped/preview');
		expect(preview.status).toBe(200);
		expect(preview.body).toMatchObject({
			valid: 5,
			invalid: 1,
			refused: { countries: [{ country: 'GB', rows: 1 }], notMobile: 0 },
			spendCap: { maxCost: 0.03, rowsWithin: 3, costWithin: 0.03 },
		});

		expect((await call('POST', '/campaigns/capped/start', { pages: 1 })).status).toBe(202);
		await until(
			async () => (await call('GET', '/campaigns/capped')).body.campaign.state === 'paused',
			30_000,
			'paused by its spend cap',
		);
		const { campaign } = (await call('GET', '/campaigns/capped')).body;
		expect(campaign.counts).toMatchObject({ accepted: 3, invalid: 1, pending: 2 });
		const sent = (await sandboxMessages(sandbox)).map((m) => m.To);
		expect(sent).toHaveLength(3);
		expect(sent).not.toContain('+447400123456');

		// frequencyCap: the three numbers just sent are at a cap of one a day, for any campaign.
		const badCap = await call('PUT', '/campaigns/wrong', {
			property: sandbox.demo.PropertySid,
			text: 'Hi',
			frequencyCap: '1 a day',
		});
		expect(badCap.status).toBe(400);
		expect(JSON.stringify(badCap.body)).toMatch(
			/"field":"frequencyCap".*frequencyCap must be N\/PERIOD such as 1\/24h/,
		);
		const often = {
			property: sandbox.demo.PropertySid,
			text: 'Hi',
			rate: 0,
			frequencyCap: '1/24h',
		};
		expect((await call('PUT', '/campaigns/often', often)).status).toBe(201);
		expect(
			(await call('PUT', '/campaigns/often/pages/1', { recipients: recipients(0, 5) })).status,
		).toBe(200);
		expect((await call('GET', '/campaigns/often/preview')).body).toMatchObject({
			valid: 2,
			capped: 3,
		});
		expect((await call('POST', '/campaigns/often/start', { pages: 1 })).status).toBe(202);
		await until(
			async () => (await call('GET', '/campaigns/often')).body.campaign.state === 'finished',
			30_000,
			'often finished',
		);
		expect((await call('GET', '/campaigns/often')).body.campaign.counts).toMatchObject({
			accepted: 2,
			capped: 3,
			pending: 0,
		});
		expect(await sandboxMessages(sandbox)).toHaveLength(5);

		// A higher maxCost given to the paused campaign: it goes on by itself, no row twice.
		const raised = await call('PUT', '/campaigns/capped', { ...settings, maxCost: 0.1 });
		expect(raised.status, JSON.stringify(raised.body)).toBe(200);
		await until(
			async () => (await call('GET', '/campaigns/capped')).body.campaign.state === 'finished',
			30_000,
			'capped finished under its raised cap',
		);
		expect((await call('GET', '/campaigns/capped')).body.campaign).toMatchObject({
			settings: { maxCost: 0.1 },
			counts: { accepted: 5, invalid: 1, pending: 0 },
		});
		const ids = (await sandboxMessages(sandbox))
			.map((m) => m.ExternalId ?? '')
			.filter((id) => id.startsWith('capped:'));
		expect(ids).toHaveLength(5);
		expect(new Set(ids).size).toBe(5);
		// Any other setting still conflicts.
		const other = await call('PUT', '/campaigns/capped', { ...settings, maxCost: 0.1, rate: 5 });
		expect(other.status).toBe(409);
	});
});
