import { describe, expect, it } from 'vitest';
import { key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { recipients, startCatcher } from './apiHarness';
import { apiWorkerRig } from './apiRig';

const cleanup = cleanupAfterEach();
// Postgres only: the promise is the events' routing, not the store (the outbox's retries are
// test/unit/worker/daemon/forwardOutbox.test.ts's, on both backends); apiRunHeld runs on SQLite.
const [, postgres] = storeBackends();

/** The numbers of this test's recipients: +61491574000 on. */
const PREFIX = '+614915740';

/**
 * An API campaign without an events URL of its own announces itself to the config's
 * worker-wide `events.url`, for the types `events.types` names (docs/internals.md, "Events
 * out": a campaign's own URL takes its events, everything else goes to `events.url`). A real
 * worker, real HTTP receivers.
 */
describe('an API campaign and the worker-wide events URL', () => {
	const backend = postgres;
	it('gets one campaign.started and one campaign.finished with the true counts; a campaign with its own URL, and types left out, are not sent there', async () => {
		const wide = await startCatcher(cleanup);
		const own = await startCatcher(cleanup);
		// The first attempt is refused: the event goes again under the same key.
		wide.statuses = [503, 200];
		const { sandbox, start, call, idle } = await apiWorkerRig(backend, cleanup, {
			config: {
				events: {
					url: `${wide.url}/all?secret=trigger-secret`,
					headers: { 'X-CloudTel-Secret': 'header-secret' },
					types: ['campaign.started', 'campaign.finished'],
				},
			},
		});
		const worker = await start();

		const settings = {
			property: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			batchSize: 1,
		};
		expect((await call('PUT', '/campaigns/wide', { ...settings, rate: 5 })).status).toBe(201);
		expect(
			(
				await call('PUT', '/campaigns/wide/pages/1', {
					recipients: [...recipients(0, 12, PREFIX), { phone: 'not a number', first_name: 'X' }],
				})
			).status,
		).toBe(200);
		expect(
			(await call('PUT', '/campaigns/mine', { ...settings, rate: 0, events: `${own.url}/mine` }))
				.status,
		).toBe(201);
		expect(
			(await call('PUT', '/campaigns/mine/pages/1', { recipients: recipients(50, 2, PREFIX) }))
				.status,
		).toBe(200);
		expect((await call('POST', '/campaigns/wide/start', { pages: 1 })).status).toBe(202);
		expect((await call('POST', '/campaigns/wide/start', { pages: 1 })).status).toBe(200);
		expect((await call('POST', '/campaigns/mine/start', { pages: 1 })).status).toBe(202);
		// A pause is an event too, but not one of the types the worker-wide URL takes.
		await until(
			async () => (await call('GET', '/campaigns/wide')).body.campaign.counts.accepted >= 2,
			30_000,
			'some sent',
		);
		expect((await call('POST', '/campaigns/wide/pause')).body.campaign.state).toBe('paused');
		await worker.waitFor(
			(l) => l.msg === 'campaign paused' && l.campaign === 'wide',
			20_000,
			'the run to see the pause',
		);
		expect((await call('POST', '/campaigns/wide/resume')).status).toBe(200);
		await until(
			async () => (await call('GET', '/campaigns/wide')).body.campaign.state === 'finished',
			30_000,
			'the campaign to finish',
		);
		const status = (await call('GET', '/campaigns/wide')).body.campaign;

		await until(
			() =>
				wide.requests.some((r) => key(r) === 'campaign.finished:wide') &&
				own.requests.some((r) => key(r) === 'campaign.finished:mine'),
			20_000,
			'both finished events',
		);
		// Nothing left to send: anything else would have come by now.
		await until(() => idle(), 20_000, 'the worker to have nothing left to send');

		const taken = wide.requests.slice(1);
		expect(taken.map(key).sort()).toEqual(['campaign.finished:wide', 'campaign.started:wide']);
		expect(wide.requests).toHaveLength(3);
		expect(taken.find((r) => key(r) === key(wide.requests[0]))!.body).toEqual(
			wide.requests[0].body,
		);
		for (const r of wide.requests) {
			expect(r.method).toBe('POST');
			expect(r.path).toBe('/all');
			expect(r.query.secret).toBe('trigger-secret');
			expect(r.headers['x-cloudtel-secret']).toBe('header-secret');
			expect(r.body).toMatchObject({ id: key(r), campaign: 'wide' });
			expect(Number.isNaN(Date.parse(r.body.occurredAt))).toBe(false);
		}
		const started = taken.find((r) => key(r) === 'campaign.started:wide')!.body;
		expect(started).toMatchObject({ type: 'campaign.started', data: {} });
		// An API campaign is one run under its own name: no `run` in its events.
		expect(started.data.run).toBeUndefined();
		const finished = taken.find((r) => key(r) === 'campaign.finished:wide')!.body;
		expect(finished.type).toBe('campaign.finished');
		expect(finished.data).toEqual({ state: 'finished', counts: status.counts });
		expect(finished.data.counts).toMatchObject({
			recipients: 13,
			pending: 0,
			accepted: 12,
			invalid: 1,
			rejected: 0,
			uncertain: 0,
			cancelled: 0,
		});

		// The campaign with its own URL: its events there, once each, without the worker-wide headers (another origin).
		expect(own.requests.map(key).sort()).toEqual([
			'campaign.finished:mine',
			'campaign.started:mine',
		]);
		for (const r of own.requests) {
			expect(r.path).toBe('/mine');
			expect(r.headers['x-cloudtel-secret']).toBeUndefined();
		}
	}, 120_000);
});
