import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/**
 * The report the Campaign node reads (GET /campaigns/{name}/report, no query) carries the
 * config's `currency`, and a cost from the campaign's own price, else the config's, as the
 * worker's report pages do. One backend: nothing here is about the store.
 */
describe.each(sqlite)("the campaign API's report in the config's currency ($name)", (backend) => {
	it('shows the cost with config currency, at the campaign price, else limits.pricePerSegment, else the query', async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup, {
			config: { currency: 'AUD', limits: { pricePerSegment: 0.05 } },
		});
		const send = async (name: string, settings: Record<string, unknown>) => {
			const base = { property: api.sandbox.demo.PropertySid, text: 'Hi {{first_name}}' };
			expect(
				(await api.call('PUT', `/api/campaigns/${name}`, { ...base, ...settings })).status,
			).toBe(201);
			const page = await api.call('PUT', `/api/campaigns/${name}/pages/1`, {
				recipients: recipients(name.length * 10, 2),
			});
			expect(page.status).toBe(200);
			expect((await api.call('POST', `/api/campaigns/${name}/start`, { pages: 1 })).status).toBe(
				202,
			);
			await until(
				async () =>
					(await api.call('GET', `/api/campaigns/${name}`)).body.campaign.state === 'finished',
				20_000,
			);
		};
		await send('priced', { pricePerSegment: 0.1, rate: 0 });
		await send('plain', { rate: 0 });
		const segments = async (path: string) => (await api.call('GET', path)).body.segments;
		expect(await segments('/api/campaigns/priced/report')).toEqual({
			sent: 2,
			pricePerSegment: 0.1,
			estimatedCost: 0.2,
			currency: 'AUD',
		});
		expect(await segments('/api/campaigns/plain/report')).toEqual({
			sent: 2,
			pricePerSegment: 0.05,
			estimatedCost: 0.1,
			currency: 'AUD',
		});
		expect(await segments('/api/campaigns/plain/report?pricePerSegment=0.2')).toMatchObject({
			estimatedCost: 0.4,
			currency: 'AUD',
		});
	});
});
