import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../../../api';
import type { DaemonStore } from '../../../worker/src/storage/daemonStore';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import { Retention } from '../../../worker/src/daemon/retention';
import type { Ledger } from '../../../worker/src/storage/ledger';
import { openDaemonStore, openLedger } from '../../../worker/src/storage/openStores';
import { storeBackends } from '../../support/storeBackends';

const backends = storeBackends();
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
	for (const o of open.splice(0)) await o.close();
});

const DAY = 86_400_000;
const NOW = Date.UTC(2027, 0, 1);
const lines: string[] = [];
const log = new JsonLogger((l) => lines.push(l));

function reply(sid: string): CallbackEvent {
	return { kind: 'reply', data: { MessageSid: sid, OriginalMessageSid: 'o', AccountSid: 'a', PropertySid: 'p', From: '+61491570001', To: '+61400000001', Text: 'hi', ExternalId: '', Timestamp: 0 } } as unknown as CallbackEvent;
}

/** A run's campaign in the ledger, one row sent and delivered. */
async function sentRun(ledger: Ledger, run: string): Promise<void> {
	await ledger.createCampaign({ name: run, csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.importBatch(run, [{ line: 2, to: '+61491570156', text: 'Hi', segments: 1, status: 'pending' }], 2);
	await ledger.markSubmitting(run, [2], 1);
	await ledger.settle(run, 1, [{ line: 2, status: 'accepted', messageSid: `SM-${run}` }]);
	await ledger.recordDelivery({ messageSid: `SM-${run}`, campaign: run, line: 2, status: 'Delivered', at: 1 });
}

describe.each(backends)('retention ($name)', (backend) => {
	it('prunes processed events, settled forwards and finished runs with their ledger rows past the period, and keeps the rest', async () => {
		const store: DaemonStore = await openDaemonStore(backend.location());
		const ledger = await openLedger(backend.location());
		open.push(store, ledger);
		const old = NOW - 100 * DAY;
		const recent = NOW - 10 * DAY;
		const payload = (sid: string) => ({ action: { type: 'forwardEmail', to: ['x@example.com'] }, context: { reply: { MessageSid: sid }, receivedAt: 0 } }) as never;
		// Events: old and processed (goes), old but never processed (stays: work to do), recent (stays).
		await store.recordEvent('reply:old', reply('old'), old);
		await store.completeEvents([{ key: 'reply:old', forwards: [{ actionKey: '0.0', payload: payload('old') }] }], old);
		await store.recordEvent('reply:stuck', reply('stuck'), old);
		await store.recordEvent('reply:new', reply('new'), recent);
		await store.completeEvents([{ key: 'reply:new', forwards: [{ actionKey: '0.0', payload: payload('new') }] }], recent);
		// Forwards: the old one sent long ago (goes); a pending one queued long ago (stays).
		const [oldForward] = await store.claimDue(NOW, 1);
		expect(oldForward.eventKey).toBe('reply:old');
		await store.markSent(oldForward.id, old);
		await store.completeEvents([{ key: 'reply:stuck2', forwards: [{ actionKey: '0.0', payload: payload('stuck2') }] }], old);
		// Runs: one finished long ago (goes, ledger rows too), one recent, one never finished.
		for (const run of ['promo-old', 'promo-recent', 'promo-open']) {
			await store.startRun({ run, campaign: 'promo', startedAt: old });
			await sentRun(ledger, run);
		}
		await store.finishRun('promo-old', 'finished', old);
		await store.finishRun('promo-recent', 'finished', recent);

		const retention = new Retention(store, ledger, 90, log);
		expect(await retention.prune(NOW)).toEqual({ events: 1, forwards: 1, runs: 1 });
		expect((await store.unprocessedEvents(10)).map((e) => e.key)).toEqual(['reply:stuck']);
		expect(await store.waitingEvents()).toBe(1);
		expect((await store.forwards()).map((f) => [f.eventKey, f.state])).toEqual(
			expect.arrayContaining([
				['reply:new', 'pending'],
				['reply:stuck2', 'pending'],
			]),
		);
		expect(await store.forwards()).toHaveLength(2);
		expect(await ledger.campaign('promo-old')).toBeUndefined();
		expect(await ledger.delivery('promo-old', 2)).toBeUndefined();
		expect(await ledger.recordDelivery({ messageSid: 'SM-promo-old', status: 'Delivered', at: 2 })).toBeUndefined();
		expect(await ledger.campaignNames()).toEqual(['promo-open', 'promo-recent']);
		expect(await store.unfinishedRuns()).toEqual([{ run: 'promo-open', campaign: 'promo', startedAt: old }]);
		expect(lines.some((l) => l.includes('"msg":"pruned"') && l.includes('"retentionDays":90'))).toBe(true);
		// Again: nothing more to prune, and what is left is all within the period or unfinished.
		expect(await retention.prune(NOW)).toEqual({ events: 0, forwards: 0, runs: 0 });
	});
});
