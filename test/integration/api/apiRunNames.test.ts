import { describe, expect, it } from 'vitest';
import { runName } from '../../../worker/src/daemon/callbacks/4-replies/runName';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/**
 * A config campaign's runs are named `<campaign>-<tick>`. An API campaign created under the
 * name of the next tick's run took it: the tick failed ("already exists with other
 * settings"), the caller's text went out instead, and replies were read as the config campaign's.
 */
describe.each(sqlite)("API campaign names and config campaigns' runs ($name)", (backend) => {
	it('refuses 409, naming the config campaign, a name of the form of its run names; other names go', async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup, {
			campaigns: [
				{
					name: 'weekly',
					cron: '0 9 * * 1',
					csv: 'weekly.csv',
					property: '11111111-1111-4111-8111-111111111111',
					text: 'Hi {{Name}}',
				},
			],
		});
		const settings = {
			property: api.sandbox.demo.PropertySid,
			text: 'Your account is locked: https://evil.example/x',
		};
		// The run the next tick of `weekly` would make.
		const nextRun = runName('weekly', new Date(Date.now() + 60_000));
		const hijack = await api.call('PUT', `/api/campaigns/${nextRun}`, settings);
		expect(hijack.status).toBe(409);
		expect(hijack.body.error).toMatchObject({
			code: 'conflict',
			field: 'name',
			message: expect.stringMatching(/run of the config campaign "weekly"/),
		});
		// Not the shape of a run, or another campaign's: free.
		expect((await api.call('PUT', '/api/campaigns/weekly-news', settings)).status).toBe(201);
		expect(
			(await api.call('PUT', '/api/campaigns/monthly-20261127T215300Z', settings)).status,
		).toBe(201);
	});
});
