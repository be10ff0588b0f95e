import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/** The API's preview warns as the CLI's dry run does of an unregistered alphanumeric `from` to Australia. */
describe.each(sqlite)('the preview and unregistered sender IDs ($name)', (backend) => {
	it("warns of an alphanumeric from sent to Australian numbers, naming Australia's SMS Sender ID Register", async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup, {
			registeredSenderIds: ['BondiShop'],
		});
		const property = api.sandbox.demo.PropertySid;
		for (const [name, from] of [
			['alpha', 'BondiDeals'],
			['number', '+61491570199'],
			['listed', 'BONDISHOP'],
		]) {
			expect(
				(await api.call('PUT', `/api/campaigns/${name}`, { property, text: 'Hi', from })).status,
			).toBe(201);
			expect(
				(
					await api.call('PUT', `/api/campaigns/${name}/pages/1`, {
						recipients: [{ phone: '+61491570101' }, { phone: '+64211234567' }],
					})
				).status,
			).toBe(200);
		}
		expect((await api.call('GET', '/api/campaigns/alpha/preview')).body.warnings).toEqual([
			expect.stringMatching(
				/^sender ID "BondiDeals" goes to 1 Australian number and is not listed as registered .*SMS Sender ID Register: from 1 July 2026.*"Unverified"/,
			),
		]);
		// A number, or an ID in the worker's senderIds.registered: no warning.
		expect((await api.call('GET', '/api/campaigns/number/preview')).body.warnings).toBeUndefined();
		expect((await api.call('GET', '/api/campaigns/listed/preview')).body.warnings).toBeUndefined();
	});
});
