import { describe, expect, it } from 'vitest';
import { key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { recipients, startCatcher } from './apiHarness';
import { apiWorkerRig } from './apiRig';
import { startApiCampaign } from './startApiCampaign';

/**
 * The cancel of an API campaign a run holds: the run stops once its batches in flight
 * settle, and only then is the end announced with its final counts. A worker killed in
 * between (the provider slow to answer a batch) must still announce it, once, when it
 * is back: the cancel is never left half made.
 * One backend a file (apiCancelCrash.<backend>.test.ts): each pair came near 60 s in one.
 */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	const cleanup = cleanupAfterEach();

	describe.each(storeBackends().filter((b) => b.name === part))(
		'cancel of an API campaign under way, worker killed before its run stops ($name)',
		(backend) => {
			it('announces campaign.finished exactly once after the restart, with the final counts', async () => {
				// Every batch takes 4 s to be answered: the kill comes while one is in flight.
				const { sandbox, driver, start, call, idle } = await apiWorkerRig(backend, cleanup, {
					sandbox: { latencyMs: 4000, receiptDelayMs: 60_000 },
				});
				const receiver = await startCatcher(cleanup);
				const sent = async () =>
					(await driver.messages()).filter((m) => String(m.ExternalId).startsWith('killed:'));

				let worker = await start();
				await startApiCampaign(
					call,
					'killed',
					{
						property: sandbox.demo.PropertySid,
						text: 'Hi {{first_name}}',
						rate: 2,
						batchSize: 1,
						events: `${receiver.url}/hook`,
					},
					recipients(0, 30, '+614915731'),
				);
				await until(
					async () => (await call('GET', '/campaigns/killed')).body.campaign.counts.accepted >= 1,
					60_000,
					'one sent',
				);
				await until(
					async () =>
						(await call('GET', '/campaigns/killed')).body.campaign.counts.pending < 30 - 1,
					10_000,
					'a batch in flight',
				);

				const cancelled = await call('POST', '/campaigns/killed/cancel');
				expect(cancelled.status).toBe(200);
				expect(cancelled.body.campaign.state).toBe('cancelled');
				// Killed while its run waits for the batches in flight (4 s each): the run never stops by itself.
				await worker.stop('SIGKILL');
				expect(receiver.requests.filter((r) => key(r) === 'campaign.finished:killed')).toHaveLength(
					0,
				);

				worker = await start();
				const finished = await until(
					() => receiver.requests.find((r) => key(r) === 'campaign.finished:killed'),
					30_000,
					'the finished event after the restart',
				);
				expect(finished.body).toMatchObject({
					type: 'campaign.finished',
					campaign: 'killed',
					data: { state: 'cancelled' },
				});
				const status = (await call('GET', '/campaigns/killed')).body.campaign;
				expect(status.state).toBe('cancelled');
				expect(finished.body.data.counts).toEqual(status.counts);
				expect(status.counts.pending).toBe(0);
				expect(status.counts.cancelled).toBeGreaterThan(0);
				expect(status.counts.accepted + status.counts.uncertain + status.counts.cancelled).toBe(30);
				// Nothing was sent after the cancel but what was in flight, and the uncertain are not sent again.
				expect((await sent()).length).toBeLessThanOrEqual(
					status.counts.accepted + status.counts.uncertain,
				);
				// Nothing left to send: a repeat of the event would have come by now.
				await until(() => idle(), 20_000, 'the worker to have nothing left to send');
				expect(receiver.requests.filter((r) => key(r) === 'campaign.finished:killed')).toHaveLength(
					1,
				);
				expect((await call('GET', '/campaigns/killed')).body.campaign.counts).toEqual(
					status.counts,
				);
				expect(worker.count((l) => l.msg === 'API campaign run failed')).toBe(0);
			}, 180_000);
		},
	);
}
