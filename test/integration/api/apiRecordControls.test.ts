import { describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();

const [sqlite] = storeBackends();

// A pause or cancel made before the run created its ledger campaign is on the API's record alone.
describe("an API campaign's run reads pause and cancel from the API's record too", () => {
	it('waits while the record says paused, and stops when it says cancelled', async () => {
		const a = await ApiUnderTest.startWithSandbox(sqlite, cleanup);
		const status = async () => (await a.call('GET', '/api/campaigns/both')).body.campaign;
		await a.call('PUT', '/api/campaigns/both', {
			property: a.sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			rate: 5,
			batchSize: 1,
		});
		await a.call('PUT', '/api/campaigns/both/pages/1', { recipients: recipients(0, 40) });
		await a.call('POST', '/api/campaigns/both/start');
		await until(async () => (await status()).counts.accepted >= 1, 20_000, 'the first send');
		const seen = (msg: string) =>
			vi.waitFor(
				() =>
					expect(
						a.lines.map((l) => JSON.parse(l)).some((l) => l.msg === msg && l.campaign === 'both'),
					).toBe(true),
				{ timeout: 20_000, interval: 20 },
			);
		expect(await a.api.store.transition('both', ['started'], 'paused', Date.now())).toBe(true);
		await seen('campaign paused');
		expect(
			await a.api.store.transition('both', ['paused'], 'cancelled', Date.now(), 'by the test'),
		).toBe(true);
		await seen('campaign summary');
		const { counts } = await status();
		expect(counts.pending).toBe(0);
		expect(counts.cancelled).toBeGreaterThan(0);
	}, 45_000);
});
