import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyCampaignCounts, type CampaignEvent } from '../../../../api';
import { CampaignEvents } from '../../../../worker/src/daemon/callbacks/5-events/campaignEvents';
import type { EventForward } from '../../../../worker/src/daemon/callbacks/6-forward/eventForward';
import { EventForwarder } from '../../../../worker/src/daemon/callbacks/6-forward/eventForwarder';
import type { KeyedForward } from '../../../../worker/src/storage/daemonStore';
import { CallbackCatcher } from '../../../support/callbackCatcher';

function reply(text: string) {
	return {
		reply: {
			MessageSid: 'r-1',
			OriginalMessageSid: 'o-1',
			AccountSid: 'AC',
			PropertySid: 'PR',
			From: '+61491570001',
			To: '+61400000000',
			Text: text,
			ExternalId: 'spring-20261125T000000Z:7',
			Timestamp: 1,
		},
		campaign: 'spring',
		run: 'spring-20261125T000000Z',
		row: 7,
		receivedAt: Date.parse('2026-11-25T00:00:01Z'),
	};
}

const actions = (forwards: { payload: unknown }[]) =>
	forwards.map((f) => (f.payload as EventForward).action);

describe('events out: where each event goes', () => {
	it("a campaign's own URL takes all of its campaign's events; the worker-wide URL the types it names", async () => {
		const events = new CampaignEvents({
			events: {
				url: 'https://n8n.example.com/w',
				types: ['campaign.finished', 'optout'],
				maxAge: '3d',
			},
			campaigns: [{ name: 'own', events: 'https://own.example.com/e' }, { name: 'spring' }],
		});
		const at = Date.parse('2026-11-25T01:00:00Z');
		expect(actions(events.startedForwards({ campaign: 'spring', run: 'spring-1' }, at))).toEqual(
			[],
		);
		const finished = events.finishedForwards(
			{ campaign: 'spring', run: 'spring-1' },
			'finished',
			emptyCampaignCounts(),
			at,
		);
		expect(finished).toEqual([
			{
				eventKey: 'campaign.finished:spring-1',
				actionKey: 'event',
				payload: {
					action: { type: 'event', to: 'worker' },
					event: {
						id: 'campaign.finished:spring-1',
						type: 'campaign.finished',
						occurredAt: '2026-11-25T01:00:00.000Z',
						campaign: 'spring',
						data: { state: 'finished', counts: emptyCampaignCounts(), run: 'spring-1' },
					},
				},
			},
		]);
		expect(actions(events.startedForwards({ campaign: 'own', run: 'own-1' }, at))).toEqual([
			{ type: 'event', to: 'campaign' },
		]);
		// An API campaign brings its URL: stored with the event.
		expect(
			actions(
				events.pausedForwards(
					{ campaign: 'api', run: 'api', url: 'https://api.example.com/x' },
					at,
					undefined,
					at,
				),
			),
		).toEqual([{ type: 'event', to: 'campaign', url: 'https://api.example.com/x' }]);
		expect(
			(
				events.pausedForwards(
					{ campaign: 'api', run: 'api', url: 'https://api.example.com/x' },
					at,
					undefined,
					at,
				)[0] as KeyedForward
			).eventKey,
		).toBe(`campaign.paused:api:${at}`);
		// Replies: reply is not in types, optout is.
		const forwards = await events.replyForwards(reply('STOP'), { keyword: 'STOP' });
		expect(
			forwards.map((f) => [f.actionKey, f.payload.event.id, f.payload.event.campaign]),
		).toEqual([['event.optout', 'optout:r-1', 'spring']]);
		expect(await events.replyForwards(reply('hello'))).toEqual([]);
	});

	it("sends nothing anywhere without an events URL; the campaign API can add its campaigns' own", async () => {
		const events = new CampaignEvents({ campaigns: [{ name: 'spring' }] });
		expect(events.enabled).toBe(false);
		expect(await events.replyForwards(reply('hi'))).toEqual([]);
		events.lookUpCampaignUrls(async (name) =>
			name === 'spring' ? 'https://api.example.com/spring' : undefined,
		);
		expect(events.enabled).toBe(true);
		const [r] = await events.replyForwards(reply('hi'));
		expect(r.payload).toEqual({
			action: { type: 'event', to: 'campaign', url: 'https://api.example.com/spring' },
			event: {
				id: 'reply:r-1',
				type: 'reply',
				occurredAt: '2026-11-25T00:00:01.000Z',
				campaign: 'spring',
				data: {
					from: '+61491570001',
					to: '+61400000000',
					text: 'hi',
					messageSid: 'r-1',
					campaign: 'spring',
				},
			},
		});
	});
});

describe('events out: the POST', () => {
	let receiver: CallbackCatcher;
	beforeAll(async () => {
		receiver = await CallbackCatcher.start();
	});
	afterAll(() => receiver.close());

	const event: CampaignEvent = {
		id: 'campaign.started:x',
		type: 'campaign.started',
		occurredAt: '2026-11-25T01:00:00.000Z',
		campaign: 'x',
		data: {},
	};

	it('carries the worker-wide headers to the worker-wide URL only, never to a campaign URL of the same origin; the id as Idempotency-Key', async () => {
		const other = await CallbackCatcher.start();
		try {
			const forwarder = new EventForwarder({
				worker: () => ({ url: `${receiver.url}/all`, headers: { 'X-CloudTel-Secret': 's3cret' } }),
				campaignUrl: (c) => (c === 'x' ? `${other.url}/x` : undefined),
				outboundAllow: () => ['127.0.0.1'],
			});
			expect(await forwarder.send({ action: { type: 'event', to: 'worker' }, event })).toEqual({
				kind: 'sent',
			});
			expect(
				await forwarder.send({
					action: { type: 'event', to: 'campaign', url: `${receiver.url}/same-origin` },
					event,
				}),
			).toEqual({ kind: 'sent' });
			expect(await forwarder.send({ action: { type: 'event', to: 'campaign' }, event })).toEqual({
				kind: 'sent',
			});
			const [all, same] = receiver.requests.slice(-2);
			expect([all.path, all.headers['x-cloudtel-secret'], all.headers['idempotency-key']]).toEqual([
				'/all',
				's3cret',
				'campaign.started:x',
			]);
			expect(all.body).toEqual(event);
			// Another workflow's trigger on the same n8n does not get this one's secret.
			expect([same.path, same.headers['x-cloudtel-secret']]).toEqual(['/same-origin', undefined]);
			expect([
				other.requests[0].path,
				other.requests[0].headers['x-cloudtel-secret'],
				other.requests[0].headers['idempotency-key'],
			]).toEqual(['/x', undefined, 'campaign.started:x']);
		} finally {
			await other.close();
		}
	});

	it("checks an API campaign's URL again when it sends: an inner address not in outbound.allow is refused, never posted", async () => {
		const before = receiver.requests.length;
		const forwarder = new EventForwarder({
			worker: () => undefined,
			campaignUrl: () => undefined,
			outboundAllow: () => ['127.0.0.1:1'],
		});
		expect(
			await forwarder.send({
				action: { type: 'event', to: 'campaign', url: `${receiver.url}/api-campaign` },
				event,
			}),
		).toMatchObject({
			kind: 'failed',
			reason: expect.stringMatching(/^events points at a loopback address \(127\.0\.0\.1\)/),
		});
		expect(receiver.requests.length).toBe(before);
	});

	it('takes 404, 408, 429 and 5xx as later, any other refusal as final; a URL gone from the config fails', async () => {
		const forwarder = new EventForwarder({
			worker: () => ({ url: `${receiver.url}/all` }),
			campaignUrl: () => undefined,
		});
		const outcome = async (status: number) => {
			receiver.statuses = [status];
			return (await forwarder.send({ action: { type: 'event', to: 'worker' }, event })).kind;
		};
		expect([
			await outcome(404),
			await outcome(408),
			await outcome(429),
			await outcome(500),
			await outcome(503),
		]).toEqual(['retry', 'retry', 'retry', 'retry', 'retry']);
		expect([await outcome(400), await outcome(401), await outcome(410)]).toEqual([
			'failed',
			'failed',
			'failed',
		]);
		receiver.statuses = [200];
		expect(
			await forwarder.send({ action: { type: 'event', to: 'campaign' }, event }),
		).toMatchObject({
			kind: 'failed',
			reason: expect.stringMatching(/campaign x has no events URL/),
		});
		expect(
			await new EventForwarder({ worker: () => undefined, campaignUrl: () => undefined }).send({
				action: { type: 'event', to: 'worker' },
				event,
			}),
		).toMatchObject({ kind: 'failed', reason: 'events is no longer in the config' });
		expect(
			(
				await new EventForwarder({
					worker: () => ({ url: 'http://127.0.0.1:1/x' }),
					campaignUrl: () => undefined,
				}).send({ action: { type: 'event', to: 'worker' }, event })
			).kind,
		).toBe('retry');
	});
});
