import { hostname } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { STALE_OWNER_MS } from '../../../worker/src/errors';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();

// On SQLite a run is one process's (on Postgres the workers join it, claiming chunks).
const [sqlite] = storeBackends();

describe('an API campaign whose run another live process holds', () => {
	it('waits for it, known by the error it is, neither failed nor put off with a reason', async () => {
		const a = await ApiUnderTest.startWithSandbox(sqlite, cleanup);
		await a.call('PUT', '/api/campaigns/held', {
			property: a.sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
		});
		await a.call('PUT', '/api/campaigns/held/pages/1', { recipients: recipients(0, 3) });
		// A copy of the worker that a kill left behind, still holding the run (this process stands in for it).
		await a.ledger.createCampaign({
			name: 'held',
			csvPath: '/elsewhere/held.csv',
			propertySid: a.sandbox.demo.PropertySid,
			text: 'Hi',
		});
		const holder = { pid: process.pid, host: hostname(), token: 'the-other-copy' };
		expect(
			await a.ledger.claim('held', { ...holder, heartbeatAt: Date.now() }, STALE_OWNER_MS),
		).toBeUndefined();
		expect((await a.call('POST', '/api/campaigns/held/start')).status).toBe(202);
		await vi.waitFor(
			() =>
				expect(a.lines.map((l) => JSON.parse(l).msg)).toContain(
					'API campaign waits: another process holds its run',
				),
			{ timeout: 20_000, interval: 20 },
		);
		const { campaign } = (await a.call('GET', '/api/campaigns/held')).body;
		expect(campaign.state).toBe('sending');
		expect(campaign.reason).toBeUndefined();
		await a.ledger.release('held', holder);
	}, 30_000);
});
