import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudTelTrigger } from '../../../nodes/CloudTelTrigger/CloudTelTrigger.node';
import { webhookServer, type WebhookServer } from './fakeN8n';

const SECRET = 'events-secret';
let hook: WebhookServer;

beforeAll(async () => {
	hook = await webhookServer(new CloudTelTrigger(), {
		events: ['campaignFinished', 'optout', 'receipt', 'campaignReply', 'linkClicked'],
		secret: SECRET,
		options: {},
	});
});
afterAll(async () => hook.close());

const counts = {
	recipients: 10_000,
	pending: 0,
	accepted: 9_996,
	rejected: 0,
	uncertain: 0,
	invalid: 3,
	duplicate: 0,
	suppressed: 1,
	cancelled: 0,
	delivered: 0,
	undelivered: 0,
	replies: 0,
};
const finished = {
	id: 'campaign.finished:spring',
	type: 'campaign.finished',
	occurredAt: '2026-11-25T01:00:00.000Z',
	campaign: 'spring',
	data: { state: 'finished', counts },
};

async function post(body: unknown, headers: Record<string, string> = {}) {
	const response = await fetch(hook.url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-cloudtel-secret': SECRET, ...headers },
		body: JSON.stringify(body),
	});
	return { status: response.status, body: await response.json(), call: hook.calls.at(-1)! };
}

describe("CloudTel Trigger: the worker's campaign events", () => {
	it("starts one execution for a Link Clicked event (a recipient's first click on a tracked link), once however often it is posted", async () => {
		const click = {
			id: 'click:AbCdEfGhIj',
			type: 'click',
			occurredAt: '2026-11-25T02:00:00.000Z',
			campaign: 'spring',
			data: { number: '+61412000001', url: 'https://shop.example.com/sale', row: 7 },
		};
		const first = await post(click, { 'idempotency-key': click.id });
		expect(first.status).toBe(200);
		expect(first.call.workflowData?.[0][0].json).toEqual({
			Event: 'LinkClicked',
			type: 'click',
			id: click.id,
			occurredAt: click.occurredAt,
			campaign: 'spring',
			number: '+61412000001',
			url: 'https://shop.example.com/sale',
			row: 7,
		});
		expect((await post(click, { 'idempotency-key': click.id })).body).toEqual({
			received: true,
			ignored: 'repeat',
		});
	});

	it('starts one execution for campaign.finished, with its counts, the event named as the other events are', async () => {
		const { status, call } = await post(finished, { 'idempotency-key': finished.id });
		expect(status).toBe(200);
		expect(call.workflowData).toEqual([
			[
				{
					json: {
						Event: 'CampaignFinished',
						type: 'campaign.finished',
						id: finished.id,
						occurredAt: finished.occurredAt,
						campaign: 'spring',
						state: 'finished',
						counts,
					},
				},
			],
		]);
	});

	it('answers a repeat (the same Idempotency-Key) 200 and starts nothing', async () => {
		const { status, body, call } = await post(
			{ ...finished, occurredAt: '2026-11-25T01:00:05.000Z' },
			{ 'idempotency-key': finished.id },
		);
		expect(status).toBe(200);
		expect(body).toEqual({ received: true, ignored: 'repeat' });
		expect(call.workflowData).toBeUndefined();
	});

	it('takes the body id when a proxy dropped the Idempotency-Key header', async () => {
		const optout = {
			id: 'optout:+61412000001:1',
			type: 'optout',
			occurredAt: '2026-11-25T01:00:00.000Z',
			data: { number: '+61412000001', keyword: 'STOP' },
		};
		expect((await post(optout)).call.workflowData?.[0][0].json).toMatchObject({
			Event: 'OptOut',
			number: '+61412000001',
			keyword: 'STOP',
		});
		expect((await post(optout)).body).toEqual({ received: true, ignored: 'repeat' });
	});

	it("gives a campaign reply the provider reply's spelling (From, To, Text, MessageSid), keeping the worker's as aliases", async () => {
		const data = {
			from: '+61412000002',
			to: '+61491570000',
			text: 'Yes please',
			messageSid: 'd4f6c2e8-1b3d-4f5a-9c7e-2d8b6f0a1c3e',
			campaign: 'spring',
		};
		const reply = {
			id: 'reply:d4f6c2e8',
			type: 'reply',
			occurredAt: '2026-11-25T01:00:00.000Z',
			campaign: 'spring',
			data,
		};
		expect((await post(reply)).call.workflowData?.[0][0].json).toMatchObject({
			Event: 'CampaignReply',
			From: data.from,
			To: data.to,
			Text: data.text,
			MessageSid: data.messageSid,
			...data,
		});
	});

	it('answers an event it does not listen to 200 without an execution, so the worker does not retry it', async () => {
		const { status, body } = await post({
			...finished,
			id: 'campaign.started:spring',
			type: 'campaign.started',
			data: {},
		});
		expect([status, body]).toEqual([200, { received: true, ignored: 'event not selected' }]);
	});

	it('refuses an event without the secret', async () => {
		const response = await fetch(hook.url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ...finished, id: 'x' }),
		});
		expect(response.status).toBe(401);
	});

	it('still reads a provider callback as one', async () => {
		const receipt = {
			MessageSid: 'a4f6c2e8-1b3d-4f5a-9c7e-2d8b6f0a1c3e',
			AccountSid: 'b4f6c2e8-1b3d-4f5a-9c7e-2d8b6f0a1c3e',
			PropertySid: 'c4f6c2e8-1b3d-4f5a-9c7e-2d8b6f0a1c3e',
			From: 'Bistro',
			To: '+61412000001',
			Status: 'Delivered',
			ErrorCode: '',
			Timestamp: 1764032400,
		};
		const { call } = await post(receipt);
		expect(call.workflowData?.[0][0].json).toMatchObject({
			Event: 'DeliveryReceipt',
			MessageSid: receipt.MessageSid,
		});
	});
});
