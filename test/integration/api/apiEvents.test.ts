import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();

/**
 * An API campaign's events: its own `events` URL gets campaign.started, one
 * campaign.paused per pause and campaign.finished with the counts the API shows, each
 * once (queued with the state change that makes it), through the worker's outbox.
 */
describe.each(storeBackends())('campaign API events ($name)', (backend) => {
	it('started once however often started, paused at each pause, finished once with the status counts', async () => {
		const sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000 });
		cleanup.push(() => sandbox.close());
		// The receiver fails its first request: that event goes again under the same key.
		const { a, receiver, store } = await ApiUnderTest.startWithEvents(
			sandbox,
			backend.location(),
			cleanup,
			[503, 200],
		);

		const pausesSeen = () =>
			new Set(receiver.requests.map(key).filter((k) => k.startsWith('campaign.paused:news:'))).size;
		const url = `${receiver.url}/hooks/news`;
		expect(
			(
				await a.call('PUT', '/api/campaigns/news', {
					property: sandbox.demo.PropertySid,
					text: 'Hi {{first_name}}',
					rate: 10,
					batchSize: 1,
					events: url,
				})
			).status,
		).toBe(201);
		expect(
			(
				await a.call('PUT', '/api/campaigns/news/pages/1', {
					recipients: [...recipients(0, 20), { phone: 'nope', first_name: 'X' }],
				})
			).status,
		).toBe(200);
		expect((await a.call('POST', '/api/campaigns/news/start', { pages: 1 })).status).toBe(202);
		expect((await a.call('POST', '/api/campaigns/news/start', { pages: 1 })).status).toBe(200);
		await until(
			async () => (await a.call('GET', '/api/campaigns/news')).body.campaign.counts.accepted >= 3,
			20_000,
			'some sent',
		);
		expect((await a.call('POST', '/api/campaigns/news/pause')).status).toBe(200);
		// A pause of a paused campaign is no new pause.
		expect((await a.call('POST', '/api/campaigns/news/pause')).status).toBe(200);
		await until(() => pausesSeen() >= 1, 20_000, 'the first pause announced');
		expect((await a.call('POST', '/api/campaigns/news/resume')).status).toBe(200);
		await until(
			async () => (await a.call('GET', '/api/campaigns/news')).body.campaign.counts.accepted >= 8,
			20_000,
			'more sent',
		);
		expect((await a.call('POST', '/api/campaigns/news/pause')).status).toBe(200);
		await until(() => pausesSeen() >= 2, 20_000, 'the second pause announced');
		expect((await a.call('POST', '/api/campaigns/news/resume')).status).toBe(200);
		await until(
			async () => (await a.call('GET', '/api/campaigns/news')).body.campaign.state === 'finished',
			30_000,
			'the campaign to finish',
		);
		const status = (await a.call('GET', '/api/campaigns/news')).body.campaign;

		await until(
			() => receiver.requests.some((r) => key(r) === 'campaign.finished:news'),
			20_000,
			'the finished event',
		);
		// Nothing left in the outbox: no event can follow.
		await until(
			async () => {
				const counts = await store.forwardCounts();
				return counts.pending === 0 && counts.sending === 0;
			},
			20_000,
			'the outbox empty',
		);
		const taken = receiver.requests.slice(1);
		const keys = taken.map(key);
		expect(new Set(keys).size).toBe(keys.length);
		expect(keys.filter((k) => k === 'campaign.started:news')).toHaveLength(1);
		expect(keys.filter((k) => k === 'campaign.finished:news')).toHaveLength(1);
		const pauses = keys.filter((k) => k.startsWith('campaign.paused:news:'));
		expect(pauses).toHaveLength(2);
		expect(keys).toHaveLength(4);
		expect(keys).toContain(key(receiver.requests[0]));
		for (const r of taken) {
			expect(r.path).toBe('/hooks/news');
			expect(r.body).toMatchObject({ id: key(r), campaign: 'news' });
		}
		const finished = taken.find((r) => key(r) === 'campaign.finished:news')!.body;
		expect(finished).toMatchObject({ type: 'campaign.finished', data: { state: 'finished' } });
		expect(finished.data.counts).toEqual(status.counts);
		expect(finished.data.counts).toMatchObject({
			recipients: 21,
			accepted: 20,
			invalid: 1,
			pending: 0,
		});
		const firstPause = taken.find((r) => key(r) === pauses.sort()[0])!.body;
		expect(firstPause.type).toBe('campaign.paused');
		expect(firstPause.data.counts.accepted).toBeGreaterThanOrEqual(3);
		expect(firstPause.data.counts.accepted).toBeLessThan(20);
		expect(taken.find((r) => key(r) === 'campaign.started:news')!.body).toMatchObject({
			type: 'campaign.started',
			data: {},
		});
	}, 90_000);
});
