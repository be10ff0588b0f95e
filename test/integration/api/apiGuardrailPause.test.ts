import { expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { ApiUnderTest, recipients } from './apiHarness';

const cleanup = cleanupAfterEach();
const [sqlite] = storeBackends();

// A marketer's workflow learns its campaign stopped at its spend cap as it learns of a
// person's pause: campaign.paused, once, at its own events URL, saying which guardrail.
it('an API campaign paused by its spend cap announces campaign.paused once, naming the cap', async () => {
	const sandbox = await startSandbox({ port: 0 });
	cleanup.push(() => sandbox.close());
	const { a, receiver, store } = await ApiUnderTest.startWithEvents(
		sandbox,
		sqlite.location(),
		cleanup,
	);
	const url = `${receiver.url}/hooks/capped`;
	expect(
		(
			await a.call('PUT', '/api/campaigns/capped', {
				property: sandbox.demo.PropertySid,
				text: 'Hi {{first_name}}',
				batchSize: 1,
				rate: 0,
				// One segment a message at 0.01: 0.03 pays for 3.
				pricePerSegment: 0.01,
				maxCost: 0.03,
				events: url,
			})
		).status,
	).toBe(201);
	await a.call('PUT', '/api/campaigns/capped/pages/1', { recipients: recipients(0, 6) });
	expect((await a.call('POST', '/api/campaigns/capped/start', { pages: 1 })).status).toBe(202);
	const paused = () =>
		receiver.requests.filter((r) => key(r).startsWith('campaign.paused:capped:'));
	await until(() => paused().length >= 1, 20_000, 'the pause announced');
	const { campaign } = (await a.call('GET', '/api/campaigns/capped')).body;
	expect(campaign.state).toBe('paused');
	// Nothing left in the outbox: no second announcement can follow.
	await until(
		async () => {
			const counts = await store.forwardCounts();
			return counts.pending === 0 && counts.sending === 0;
		},
		20_000,
		'the outbox empty',
	);
	expect(paused()).toHaveLength(1);
	expect(paused()[0].path).toBe('/hooks/capped');
	expect(paused()[0].body).toMatchObject({
		type: 'campaign.paused',
		campaign: 'capped',
		data: { pausedBy: 'spend-cap', counts: { accepted: 3, pending: 3 } },
	});
	expect(paused()[0].body.data.reason).toMatch(/0\.03/);
}, 45_000);
