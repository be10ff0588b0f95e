import { afterEach, describe, expect, it } from 'vitest';
import { failingDestinations } from '../../../worker/src/daemon/callbacks/6-forward/failingDestinations';
import { HealthCheck } from '../../../worker/src/daemon/http/healthCheck';
import type { DaemonStore, KeyedForward } from '../../../worker/src/storage/daemonStore';
import { openDaemonStore } from '../../../worker/src/storage/openStores';
import { storeBackends } from '../../support/storeBackends';

const HOUR = 3_600_000;

function event(id: string, url?: string): KeyedForward {
	return {
		eventKey: id,
		actionKey: 'event',
		payload: {
			action: { type: 'event', to: url ? 'campaign' : 'worker', ...(url ? { url } : {}) },
			event: { id, type: 'campaign.finished', occurredAt: '2026-11-27T00:00:00Z', data: {} },
		} as KeyedForward['payload'],
	};
}

let store: DaemonStore | undefined;
afterEach(async () => {
	await store?.close();
	store = undefined;
});

/**
 * /health names the receivers whose deliveries have been failing for over an hour (a
 * delivery queued that long ago, failed, waiting for another attempt); one failing for
 * minutes, or one that went through late, is not named. On the store's own query, so both backends.
 */
describe.each(storeBackends())('/health: receivers failing for over an hour ($name)', (backend) => {
	it('names the events URL failing for two hours, not one failing for a minute or one delivered', async () => {
		store = await openDaemonStore(backend.location());
		const now = Date.now();
		await store.queueForwards(
			[event('old'), event('delivered', 'https://late.example.com/in')],
			now - 2 * HOUR,
		);
		await store.queueForwards([event('new', 'https://blip.example.com/in')], now - 60_000);
		const claimed = await store.claimDue(now, 10);
		expect(claimed).toHaveLength(3);
		for (const job of claimed) {
			if (job.eventKey === 'delivered') await store.markSent(job.id, now);
			else await store.retryLater(job.id, now + 60_000, 'HTTP 503 from receiver', now);
		}
		const health = new HealthCheck({
			counts: async () => ({}),
			intake: () => ({
				storeDown: false,
				spooled: 0,
				spoolBytes: 0,
				spoolMaxBytes: 1 << 20,
				spoolWritable: true,
			}),
			smtpError: () => undefined,
			campaignsRunning: () => 0,
			failingDestinations: () => failingDestinations(store!, Date.now()),
		});
		const report = await health.report();
		expect(report.degraded).toEqual(['deliveries failing for over an hour: events']);
		expect(report.canTakeCallbacks).toBe(true);
	});
});
