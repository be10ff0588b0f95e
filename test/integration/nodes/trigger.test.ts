import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { CloudTelTrigger } from '../../../nodes/CloudTelTrigger/CloudTelTrigger.node';
import { executeContext, webhookServer, type WebhookServer } from './fakeN8n';
import { credentialsFor, control, eventually } from './sandboxControl';

const SECRET = 's3cret-value';
const trigger = new CloudTelTrigger();
let sb: RunningSandbox;
let hook: WebhookServer;

beforeAll(async () => {
	sb = await startSandbox({ port: 0, receiptDelayMs: 20 });
	hook = await webhookServer(trigger, {
		events: ['receipt', 'reply'],
		secret: SECRET,
		options: {},
	});
});
afterAll(async () => {
	await sb.close();
	await hook.close();
});

async function send(params: IDataObject): Promise<IDataObject> {
	const ctx = executeContext({
		credentials: credentialsFor(sb),
		params: {
			resource: 'message',
			operation: 'send',
			propertySid: sb.demo.PropertySid,
			text: 'Hello',
			...params,
		},
	});
	return (await new CloudTel().execute.call(ctx))[0][0].json;
}

function executionsFor(messageSid: unknown) {
	return hook.calls.filter((c) => c.workflowData?.[0][0].json.MessageSid === messageSid);
}

async function post(
	url: string,
	body: string,
	headers: Record<string, string> = { 'content-type': 'application/json' },
) {
	const before = hook.calls.length;
	const response = await fetch(url, { method: 'POST', headers, body });
	await eventually(() => hook.calls.length > before);
	return { status: response.status, call: hook.calls[hook.calls.length - 1] };
}

describe('CloudTel Trigger', () => {
	it('starts one execution per delivery receipt POSTed to its URL, keeping the raw payload but not the secret', async () => {
		const message = await send({
			from: 'Bistro',
			to: '+61412000001',
			options: { DeliveryReceiptWebhookUri: `${hook.url}?secret=${SECRET}`, ExternalId: 'ext-1' },
		});
		const [call] = await eventually(() =>
			executionsFor(message.MessageSid).length ? executionsFor(message.MessageSid) : undefined,
		);
		expect(call.method).toBe('POST');
		expect(call.workflowData).toEqual([
			[
				{
					json: {
						Event: 'DeliveryReceipt',
						MessageSid: message.MessageSid,
						AccountSid: sb.demo.AccountSid,
						PropertySid: sb.demo.PropertySid,
						From: 'Bistro',
						To: '+61412000001',
						Status: 'Delivered',
						ErrorCode: '',
						ExternalId: 'ext-1',
						Timestamp: expect.any(Number),
						TimestampIso: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
						Raw: expect.objectContaining({ MessageSid: message.MessageSid, Status: 'Delivered' }),
					},
				},
			],
		]);
		expect(call.workflowData?.[0][0].json.Raw).not.toHaveProperty('secret');
		const { Timestamp, TimestampIso } = call.workflowData![0][0].json;
		expect(new Date(String(TimestampIso)).getTime()).toBe(Number(Timestamp) * 1000);
	});

	it('accepts the same callback as GET query parameters on the same URL', async () => {
		const message = await send({
			from: 'Bistro',
			to: '+61412000666',
			options: {
				DeliveryReceiptWebhookUri: `${hook.url}?secret=${SECRET}`,
				DeliveryReceiptWebhookMethod: 'GET',
			},
		});
		const [call] = await eventually(() =>
			executionsFor(message.MessageSid).length ? executionsFor(message.MessageSid) : undefined,
		);
		expect(call.method).toBe('GET');
		expect(call.workflowData?.[0][0].json).toMatchObject({
			Event: 'DeliveryReceipt',
			Status: 'Failed',
			ErrorCode: 'UNDELIVERABLE',
			Timestamp: expect.any(Number),
		});
	});

	it('starts an execution for a reply to a leased number', async () => {
		const message = await send({
			from: '',
			to: '+61412000002',
			replyHandling: { WebhookUri: `${hook.url}?secret=${SECRET}` },
		});
		const reply = await control<{ MessageSid: string }>(sb, 'POST', '/replies', {
			From: '+61412000002',
			To: message.From,
			Text: 'Yes please',
		});
		const [call] = await eventually(() =>
			executionsFor(reply.MessageSid).length ? executionsFor(reply.MessageSid) : undefined,
		);
		expect(call.workflowData?.[0][0].json).toMatchObject({
			Event: 'Reply',
			MessageSid: reply.MessageSid,
			OriginalMessageSid: message.MessageSid,
			From: '+61412000002',
			To: message.From,
			Text: 'Yes please',
		});
	});

	it('answers 401 and starts nothing without the right secret', async () => {
		const message = await send({
			from: 'Bistro',
			to: '+61412000003',
			options: { DeliveryReceiptWebhookUri: `${hook.url}?secret=wrong` },
		});
		const attempts = await eventually(async () => {
			const { Callbacks } = await control<{ Callbacks: IDataObject[] }>(sb, 'GET', '/outbox');
			const mine = Callbacks.filter((c) => c.MessageSid === message.MessageSid);
			return mine.length >= 1 ? mine : undefined;
		});
		expect(attempts[0].Delivered).toBe(false);
		expect(hook.calls.filter((c) => c.status === 401).length).toBeGreaterThanOrEqual(1);
		expect(executionsFor(message.MessageSid)).toHaveLength(0);

		const noSecret = await post(
			hook.url,
			JSON.stringify({ MessageSid: 'm-1', Status: 'Delivered' }),
		);
		expect(noSecret).toMatchObject({ status: 401, call: { workflowData: undefined } });
	});

	it('takes the secret from a header too', async () => {
		const { status, call } = await post(
			hook.url,
			JSON.stringify({ MessageSid: 'header-1', Status: 'Delivered', Timestamp: 1 }),
			{
				'content-type': 'application/json',
				'x-cloudtel-secret': SECRET,
			},
		);
		expect(status).toBe(200);
		expect(call.workflowData?.[0][0].json).toMatchObject({
			MessageSid: 'header-1',
			Event: 'DeliveryReceipt',
		});
	});

	it.each([
		['a JSON object that is no callback', JSON.stringify({ hello: 'world' }), 'application/json'],
		[
			'a receipt with an unknown Status',
			JSON.stringify({ MessageSid: 'x', Status: 'Maybe' }),
			'application/json',
		],
		[
			'a JSON array',
			JSON.stringify([{ MessageSid: 'x', Status: 'Delivered' }]),
			'application/json',
		],
		['broken JSON', '{"MessageSid": ', 'application/json'],
		['plain text', 'MessageSid=x', 'text/plain'],
	])('answers 400 and starts nothing for %s', async (_name, body, contentType) => {
		const { status, call } = await post(`${hook.url}?secret=${SECRET}`, body, {
			'content-type': contentType,
		});
		expect(status).toBe(400);
		expect(call.workflowData).toBeUndefined();
		expect(call.body).toMatchObject({ ResponseStatus: { ErrorCode: expect.any(String) } });
	});

	it('acknowledges a repeated callback without a second execution', async () => {
		const body = JSON.stringify({ MessageSid: 'repeat-1', Status: 'Delivered', Timestamp: 1 });
		expect((await post(`${hook.url}?secret=${SECRET}`, body)).call.workflowData).toBeDefined();
		const again = await post(`${hook.url}?secret=${SECRET}`, body);
		expect(again).toMatchObject({
			status: 200,
			call: { workflowData: undefined, body: { ignored: 'repeat' } },
		});
	});

	it('starts one execution for concurrent repeats, and writes nothing to static data', async () => {
		const body = JSON.stringify({ MessageSid: 'concurrent-1', Status: 'Delivered', Timestamp: 1 });
		const before = hook.calls.length;
		const answers = await Promise.all(
			Array.from({ length: 10 }, () =>
				fetch(`${hook.url}?secret=${SECRET}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body,
				}),
			),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
		await eventually(() => hook.calls.length >= before + 10);
		expect(executionsFor('concurrent-1')).toHaveLength(1);
		expect(hook.staticData).toEqual({});
	});

	it('acknowledges events it does not listen to without an execution', async () => {
		const repliesOnly = await webhookServer(trigger, {
			events: ['reply'],
			secret: '',
			options: {},
		});
		try {
			const response = await fetch(repliesOnly.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ MessageSid: 'r', Status: 'Delivered' }),
			});
			expect(response.status).toBe(200);
			expect(repliesOnly.calls[0].workflowData).toBeUndefined();
		} finally {
			await repliesOnly.close();
		}
	});

	it('has nothing to register with the provider', async () => {
		const hooks = trigger.webhookMethods.default;
		const ctx = {} as never;
		expect([
			await hooks.checkExists.call(ctx),
			await hooks.create.call(ctx),
			await hooks.delete.call(ctx),
		]).toEqual([true, true, true]);
		expect(trigger.description.webhooks?.map((w) => [w.httpMethod, w.path])).toEqual([
			['POST', 'cloudtel'],
			['GET', 'cloudtel'],
		]);
	});
});
