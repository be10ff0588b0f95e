import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../worker/src/storage/openStores';
import { key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { until } from '../daemon/harness';
import { startCatcher } from './apiHarness';
import { apiWorkerRig } from './apiRig';

const cleanup = cleanupAfterEach();

const ANN = '+61491574101';
const BO = '+61491574102';

/**
 * Replies to an API campaign's messages, as the provider calls them back (the sandbox's
 * reply callback to the worker's reply URL), go to the campaign's own events URL: a `reply`
 * for each reply taken, an `optout` for the STOP, each once with its Idempotency-Key, none
 * to the worker-wide URL (docs/internals.md, "Events out" and "The campaign API", Events).
 * The STOP puts the number on the suppression list: a later campaign finds it suppressed.
 */
describe.each(storeBackends())(
	"an API campaign's replies and opt-outs over HTTP ($name)",
	(backend) => {
		it('sends one reply event per reply and one optout for the STOP to its own URL, and suppresses the number', async () => {
			const own = await startCatcher(cleanup);
			const wide = await startCatcher(cleanup);
			const { sandbox, driver, location, start, call, idle } = await apiWorkerRig(
				backend,
				cleanup,
				{ config: { events: { url: `${wide.url}/all` } } },
			);
			await start();

			// No `from`: a leased sender, replies to this worker (the default).
			const settings = {
				property: sandbox.demo.PropertySid,
				text: 'Hi {{first_name}}, reply to book',
				rate: 0,
				events: `${own.url}/chat`,
			};
			const created = await call('PUT', '/campaigns/chat', settings);
			expect(created.status).toBe(201);
			expect(created.body.campaign.settings).toMatchObject({
				replies: true,
				events: `${own.url}/chat`,
			});
			expect(
				(
					await call('PUT', '/campaigns/chat/pages/1', {
						recipients: [
							{ phone: ANN, first_name: 'Ann' },
							{ phone: BO, first_name: 'Bo' },
						],
					})
				).status,
			).toBe(200);
			expect((await call('POST', '/campaigns/chat/start')).status).toBe(202);
			await until(
				async () => (await call('GET', '/campaigns/chat')).body.campaign.state === 'finished',
				30_000,
				'the campaign to finish',
			);
			const toAnn = (await driver.messages()).find(
				(m) => String(m.ExternalId).startsWith('chat:') && m.To === ANN,
			);
			expect(toAnn).toBeDefined();

			const thanks = await driver.reply(ANN, toAnn.From, 'Thanks, see you then');
			await until(() => driver.callbackDelivered(thanks), 20_000, 'the worker to take the reply');
			const stop = await driver.reply(ANN, toAnn.From, 'STOP');
			await until(() => driver.callbackDelivered(stop), 20_000, 'the worker to take the STOP');

			const expected = [
				'campaign.started:chat',
				'campaign.finished:chat',
				`reply:${thanks}`,
				`reply:${stop}`,
				`optout:${stop}`,
			];
			await until(
				() => expected.every((k) => own.requests.some((r) => key(r) === k)),
				20_000,
				'every event',
			);
			// Nothing left to send: a repeat would have come by now.
			await until(() => idle(), 20_000, 'the worker to have nothing left to send');
			expect(own.requests.map(key).sort()).toEqual([...expected].sort());
			for (const r of own.requests) {
				expect(r.method).toBe('POST');
				expect(r.path).toBe('/chat');
				expect(r.body).toMatchObject({ id: key(r), campaign: 'chat' });
			}
			const byKey = new Map(own.requests.map((r) => [key(r), r.body]));
			expect(byKey.get(`reply:${thanks}`)).toMatchObject({
				type: 'reply',
				data: {
					from: ANN,
					to: toAnn.From,
					text: 'Thanks, see you then',
					messageSid: thanks,
					campaign: 'chat',
				},
			});
			// The STOP is a reply too, and the one that opts out.
			expect(byKey.get(`reply:${stop}`)).toMatchObject({
				type: 'reply',
				data: { from: ANN, text: 'STOP', messageSid: stop, campaign: 'chat' },
			});
			expect(byKey.get(`optout:${stop}`)).toMatchObject({
				type: 'optout',
				data: { number: ANN, keyword: 'STOP' },
			});
			// A campaign's own URL takes all of its events: the worker-wide one, which takes every type, gets none.
			expect(wide.requests).toEqual([]);

			// On the suppression list: a later campaign to Ann and Bo would skip Ann.
			const ledger = await openLedger(location);
			try {
				expect(await ledger.isSuppressed(ANN)).toBe(true);
				expect(await ledger.isSuppressed(BO)).toBe(false);
			} finally {
				await ledger.close();
			}
			expect((await call('PUT', '/campaigns/later', settings)).status).toBe(201);
			expect(
				(
					await call('PUT', '/campaigns/later/pages/1', {
						recipients: [
							{ phone: ANN, first_name: 'Ann' },
							{ phone: BO, first_name: 'Bo' },
						],
					})
				).status,
			).toBe(200);
			expect((await call('GET', '/campaigns/later/preview')).body).toMatchObject({
				recipients: 2,
				valid: 1,
				suppressed: 1,
			});
		}, 120_000);
	},
);
