import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackEvent, CampaignSettings } from '../../../../api';
import type { EndState } from '../../../../worker/src/storage/apiCampaignStore';
import { openApiCampaignStore } from '../../../../worker/src/storage/openApiCampaignStore';
import type { DaemonStore } from '../../../../worker/src/storage/daemonStore';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import { Retention } from '../../../../worker/src/daemon/retention';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import {
	linkStoreOf,
	openDaemonStore,
	openLedger,
} from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';

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
	return {
		kind: 'reply',
		data: {
			MessageSid: sid,
			OriginalMessageSid: 'o',
			AccountSid: 'a',
			PropertySid: 'p',
			From: '+61491570001',
			To: '+61400000001',
			Text: 'hi',
			ExternalId: '',
			Timestamp: 0,
		},
	} as unknown as CallbackEvent;
}

/** A run's campaign in the ledger, one row sent and delivered. */
async function sentRun(ledger: Ledger, run: string): Promise<void> {
	await ledger.createCampaign({ name: run, csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.importBatch(
		run,
		[{ line: 2, to: '+61491570156', text: 'Hi', segments: 1, status: 'pending' }],
		2,
	);
	await ledger.markSubmitting(run, [2], 1);
	await ledger.settle(run, 1, [{ line: 2, status: 'accepted', messageSid: `SM-${run}` }]);
	await ledger.recordDelivery({
		messageSid: `SM-${run}`,
		campaign: run,
		line: 2,
		status: 'Delivered',
		at: 1,
	});
}

describe.each(backends)('retention ($name)', (backend) => {
	it('prunes tracked links past links.ttl: their tokens then are unknown; younger ones stay', async () => {
		const store: DaemonStore = await openDaemonStore(backend.location());
		const ledger = await openLedger(backend.location());
		open.push(store, ledger);
		await ledger.createCampaign({ name: 'tl', csvPath: '/l.csv', propertySid: 'PR1', text: 'x' });
		await ledger.importBatch(
			'tl',
			[
				{
					line: 2,
					to: '+61491570156',
					text: 'https://go.example.com/AbCdEfGhIj',
					segments: 1,
					status: 'pending',
					links: [{ token: 'AbCdEfGhIj', url: 'https://shop.example.com/' }],
				},
			],
			2,
		);
		const links = linkStoreOf(ledger);
		const retention = new Retention(store, ledger, 365, log, undefined, {
			store: links,
			ttlMs: 90 * DAY,
		});
		expect((await retention.prune(Date.now() + 89 * DAY)).links).toBe(0);
		expect(await links.target('AbCdEfGhIj')).toMatchObject({ url: 'https://shop.example.com/' });
		expect((await retention.prune(Date.now() + 91 * DAY)).links).toBe(1);
		expect(await links.target('AbCdEfGhIj')).toBeUndefined();
	});

	it('prunes processed events, settled forwards and finished runs with their ledger rows past the period, and keeps the rest', async () => {
		const store: DaemonStore = await openDaemonStore(backend.location());
		const ledger = await openLedger(backend.location());
		open.push(store, ledger);
		const old = NOW - 100 * DAY;
		const recent = NOW - 10 * DAY;
		const payload = (sid: string) =>
			({
				action: { type: 'forwardEmail', to: ['x@example.com'] },
				context: { reply: { MessageSid: sid }, receivedAt: 0 },
			}) as never;
		// Events: old and processed (goes), old but never processed (stays: work to do), recent (stays).
		await store.recordEvent('reply:old', reply('old'), old);
		await store.completeEvents(
			[{ key: 'reply:old', forwards: [{ actionKey: '0.0', payload: payload('old') }] }],
			old,
		);
		await store.recordEvent('reply:stuck', reply('stuck'), old);
		await store.recordEvent('reply:new', reply('new'), recent);
		await store.completeEvents(
			[{ key: 'reply:new', forwards: [{ actionKey: '0.0', payload: payload('new') }] }],
			recent,
		);
		// Forwards: the old one sent long ago (goes); a pending one queued long ago (stays).
		const [oldForward] = await store.claimDue(NOW, 1);
		expect(oldForward.eventKey).toBe('reply:old');
		await store.markSent(oldForward.id, old);
		await store.completeEvents(
			[{ key: 'reply:stuck2', forwards: [{ actionKey: '0.0', payload: payload('stuck2') }] }],
			old,
		);
		// Runs: one finished long ago (goes, ledger rows too), one recent, one never finished.
		for (const run of ['promo-old', 'promo-recent', 'promo-open']) {
			await store.startRun({ run, campaign: 'promo', startedAt: old });
			await sentRun(ledger, run);
		}
		await store.finishRun('promo-old', 'finished', old);
		await store.finishRun('promo-recent', 'finished', recent);

		const retention = new Retention(store, ledger, 90, log);
		expect(await retention.prune(NOW)).toEqual({
			events: 1,
			forwards: 1,
			runs: 1,
			apiCampaigns: 0,
			links: 0,
		});
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
		expect(
			await ledger.recordDelivery({ messageSid: 'SM-promo-old', status: 'Delivered', at: 2 }),
		).toBeUndefined();
		expect(await ledger.campaignNames()).toEqual(['promo-open', 'promo-recent']);
		expect(await store.unfinishedRuns()).toEqual([
			{ run: 'promo-open', campaign: 'promo', startedAt: old },
		]);
		expect(
			lines.some((l) => l.includes('"msg":"pruned"') && l.includes('"retentionDays":90')),
		).toBe(true);
		// Again: nothing more to prune, and what is left is all within the period or unfinished.
		expect(await retention.prune(NOW)).toEqual({
			events: 0,
			forwards: 0,
			runs: 0,
			apiCampaigns: 0,
			links: 0,
		});
	});

	it('prunes API campaigns ended before the period with their ledger rows and pages; keeps the recent, the unended and a cancel still settling', async () => {
		const store: DaemonStore = await openDaemonStore(backend.location());
		const ledger = await openLedger(backend.location());
		const api = await openApiCampaignStore(backend.location(), ledger);
		open.push(store, api, ledger);
		const settings: CampaignSettings = {
			property: '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e',
			text: 'Hi {{first_name}}',
		};
		const old = NOW - 100 * DAY;
		const recent = NOW - 10 * DAY;
		/** An API campaign moved through `path` at `at`, its ledger campaign sent (and `paused`), a page stored. */
		const campaign = async (
			name: string,
			path: ('started' | EndState)[],
			at: number,
			paused = false,
		) => {
			await api.create(name, settings, old - DAY);
			await api.putPage(
				name,
				{
					page: 1,
					hash: `h-${name}`,
					recipients: 1,
					columns: ['phone'],
					body: '[{"phone":"+61491570156"}]',
				},
				old - DAY,
			);
			const spec = { name, csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' };
			for (const to of path)
				expect(
					to === 'started'
						? await api.start(name, spec, at)
						: await api.end(name, ['started'], to, at),
				).toBe(true);
			if (path.length > 0) await sentRun(ledger, name);
			if (paused) await api.pause(name, at);
		};
		await campaign('api-finished-old', ['started', 'finished'], old);
		await campaign('api-cancelled-old', ['started', 'cancelled'], old);
		await campaign('api-failed-old', ['started', 'failed'], old);
		await campaign('api-finished-recent', ['started', 'finished'], recent);
		await campaign('api-sending-old', ['started'], old);
		await campaign('api-paused-old', ['started'], old, true);
		await campaign('api-cancelling-old', ['started'], old);
		// Cancelled while its run held it: the ledger's until the run settles it.
		await ledger.setPhase('api-cancelling-old', 'cancelled', { reason: 'by the test', at: old });
		await campaign('api-draft-old', [], old);
		const gone = ['api-cancelled-old', 'api-failed-old', 'api-finished-old'];
		const kept = [
			'api-cancelling-old',
			'api-draft-old',
			'api-finished-recent',
			'api-paused-old',
			'api-sending-old',
		];

		const retention = new Retention(store, ledger, 90, log, { store: api });
		expect(await retention.prune(NOW)).toEqual({
			events: 0,
			forwards: 0,
			runs: 0,
			apiCampaigns: 3,
			links: 0,
		});
		expect((await api.list()).map((c) => c.name)).toEqual(kept);
		expect(await ledger.campaignNames()).toEqual(kept.filter((n) => n !== 'api-draft-old'));
		for (const name of gone) {
			expect(await api.campaign(name)).toBeUndefined();
			expect(await api.pageTotals(name)).toEqual({ pages: [], recipients: 0 });
			expect(
				await ledger.recordDelivery({ messageSid: `SM-${name}`, status: 'Delivered', at: 2 }),
			).toBeUndefined();
		}
		// Those not ended keep their pages.
		expect((await api.pageTotals('api-sending-old')).recipients).toBe(1);
		expect((await api.pageTotals('api-cancelling-old')).recipients).toBe(1);
		expect(lines.some((l) => l.includes('"msg":"pruned"') && l.includes('"apiCampaigns":3'))).toBe(
			true,
		);
		// The name is free again, as a new draft.
		expect((await api.create('api-finished-old', settings, NOW)).created).toBe(true);
		expect(await retention.prune(NOW)).toEqual({
			events: 0,
			forwards: 0,
			runs: 0,
			apiCampaigns: 0,
			links: 0,
		});
	});
});
