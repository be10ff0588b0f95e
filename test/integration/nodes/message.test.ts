import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { IDataObject } from 'n8n-workflow';
import type { RunningSandbox } from '../../../sandbox/src';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { allSandboxMessages } from '../../support/sandboxMessages';
import { executeContext, type ExecuteOptions } from './fakeN8n';
import { control, credentialsFor, sandboxForFile } from './sandboxControl';

const node = new CloudTel();
let sb: RunningSandbox;
sandboxForFile((started) => (sb = started));

function send(params: ExecuteOptions['params'], extra: Partial<ExecuteOptions> = {}) {
	const ctx = executeContext({
		credentials: credentialsFor(sb),
		params: { resource: 'message', operation: 'send', propertySid: sb.demo.PropertySid, ...params },
		...extra,
	});
	return { ctx, result: node.execute.call(ctx) };
}

async function sandboxMessage(sid: string): Promise<IDataObject> {
	const Messages = await allSandboxMessages<IDataObject>(sb.url, {
		PropertySid: sb.demo.PropertySid,
	});
	return Messages.find((m) => m.MessageSid === sid) as IDataObject;
}

describe('Message: Send', () => {
	it('names each bad field with its own code: a blank Property SID and a malformed To', async () => {
		const ctx = executeContext({
			credentials: credentialsFor(sb),
			params: {
				resource: 'message',
				operation: 'send',
				propertySid: '',
				from: 'Bistro',
				to: '0412 345 678',
				text: 'x',
			},
		});
		await expect(node.execute.call(ctx)).rejects.toMatchObject({
			message: 'Invalid Property SID: FIELD_REQUIRED; To: INVALID_PHONENUMBER_FORMAT',
			context: {
				ErrorCode: 'FIELD_REQUIRED',
				FieldNames: ['PropertySid', 'To'],
				Errors: [
					{ FieldName: 'PropertySid', Value: '' },
					{ FieldName: 'To', Value: '0412 345 678' },
				],
			},
		});
	});

	it('accepts a Base URL ending in /v2 (the API paths start with it already)', async () => {
		const { ctx, result } = send(
			{ from: 'Bistro', to: '+61412345678', text: 'x' },
			{ credentials: { ...credentialsFor(sb), baseUrl: `${sb.url}/v2/` } },
		);
		expect((await result)[0][0].json.MessageSid).toEqual(expect.any(String));
		expect(ctx.sent[0].url).toBe(`${sb.url}/v2/Properties/${sb.demo.PropertySid}/Messages`);
	});

	it("says an HTML page answered, not CloudTel's API, with the Base URL in use", async () => {
		const server = createServer((_req, res) =>
			res.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html></html>'),
		);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const { result } = send(
				{ from: 'Bistro', to: '+61412345678', text: 'x' },
				{ credentials: { ...credentialsFor(sb), baseUrl } },
			);
			await expect(result).rejects.toMatchObject({
				message: "The Base URL answered an HTML page (HTTP 404), not CloudTel's API",
				description: `Check the Base URL of the CloudTel API credential (now "${baseUrl}"): it must be the root of the CloudTel API your account uses.`,
			});
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	it('sends every field: schedule as Unix seconds, receipt webhook, ExternalId, reply handling', async () => {
		const at = new Date(Date.now() + 2 * 3600_000);
		at.setUTCMilliseconds(0);
		const { ctx, result } = send({
			from: '',
			to: '+61412345678',
			text: 'Your table is ready',
			options: {
				Schedule: at.toISOString(),
				DeliveryReceipt: true,
				DeliveryReceiptWebhookUri: 'https://hooks.example.com/receipt?secret=s3',
				DeliveryReceiptWebhookMethod: 'GET',
				ExternalId: 'booking-42',
			},
			replyHandling: {
				ForwardToSms: '+61499999999',
				ForwardFromSms: 'Bistro',
				ForwardToEmail: 'owner@example.com',
				ForwardFromEmail: 'sms@example.com',
				WebhookUri: 'https://hooks.example.com/reply',
				WebhookMethod: 'POST',
			},
		});
		const out = await result;
		expect(ctx.sent[0].body).toEqual({
			To: '+61412345678',
			Text: 'Your table is ready',
			Schedule: at.getTime() / 1000,
			DeliveryReceipt: true,
			DeliveryReceiptWebhookUri: 'https://hooks.example.com/receipt?secret=s3',
			DeliveryReceiptWebhookMethod: 'GET',
			ExternalId: 'booking-42',
			ForwardToSms: '+61499999999',
			ForwardFromSms: 'Bistro',
			ForwardToEmail: 'owner@example.com',
			ForwardFromEmail: 'sms@example.com',
			WebhookUri: 'https://hooks.example.com/reply',
			WebhookMethod: 'POST',
		});
		const message = out[0][0].json;
		expect(message).toMatchObject({
			To: '+61412345678',
			ExternalId: 'booking-42',
			From: expect.stringMatching(/^\+\d+$/),
		});
		expect(out[0][0].pairedItem).toEqual({ item: 0 });
		expect(await sandboxMessage(message.MessageSid as string)).toMatchObject({
			Status: 'Scheduled',
			Schedule: at.getTime() / 1000,
			DeliveryReceiptWebhookUri: 'https://hooks.example.com/receipt?secret=s3',
			WebhookUri: 'https://hooks.example.com/reply',
		});
	});

	it("reads a zoneless date, as n8n's date picker gives it, in the workflow's time zone", async () => {
		const target = Math.floor(Date.now() / 1000) + 3 * 3600;
		const sydneyWallTime = new Intl.DateTimeFormat('sv-SE', {
			timeZone: 'Australia/Sydney',
			dateStyle: 'short',
			timeStyle: 'medium',
		})
			.format(new Date(target * 1000))
			.replace(' ', 'T');
		const { ctx, result } = send(
			{ from: 'Bistro', to: '+61412345678', text: 'x', options: { Schedule: sydneyWallTime } },
			{ timezone: 'Australia/Sydney' },
		);
		await result;
		expect((ctx.sent[0].body as IDataObject).Schedule).toBe(target);
	});

	it('refuses a schedule beyond 14 days before sending', async () => {
		const { ctx, result } = send({
			from: 'Bistro',
			to: '+61412345678',
			text: 'x',
			options: { Schedule: new Date(Date.now() + 15 * 86400_000).toISOString() },
		});
		await expect(result).rejects.toMatchObject({
			context: { ErrorCode: 'SCHEDULE_TOO_FAR', FieldNames: ['Schedule'] },
		});
		expect(ctx.sent).toHaveLength(0);
	});

	it('refuses a Text with NUL or a lone surrogate before sending, naming the field and item', async () => {
		for (const text of ['Hi\u0000', 'Hi \uD83D']) {
			const { ctx, result } = send({ from: 'Bistro', to: '+61412345678', text });
			await expect(result).rejects.toMatchObject({
				message: 'Invalid Text: INVALID_CHARACTER',
				context: { itemIndex: 0, FieldNames: ['Text'] },
			});
			expect(ctx.sent).toHaveLength(0);
		}
	});

	it('refuses reply options with a non-blank From, by field and item, sending nothing', async () => {
		const { ctx, result } = send({
			from: 'Bistro',
			to: '+61412345678',
			text: 'x',
			replyHandling: { WebhookUri: 'https://hooks.example.com/reply' },
		});
		await expect(result).rejects.toMatchObject({
			message: expect.stringMatching(/^Invalid Webhook URI: [A-Z_]+$/),
			context: { itemIndex: 0, FieldNames: ['WebhookUri'] },
		});
		expect(ctx.sent).toHaveLength(0);
	});

	it('validates every item before sending any, without Continue On Fail', async () => {
		const to = ['+61412345678', '0412 345 678'];
		const { ctx, result } = send(
			{ from: 'Bistro', to: (i: number) => to[i], text: 'x' },
			{ items: [{ json: {} }, { json: {} }] },
		);
		await expect(result).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: 'Invalid To: INVALID_PHONENUMBER_FORMAT',
			context: { itemIndex: 1 },
		});
		expect(ctx.sent).toHaveLength(0);
	});

	it('keeps a failed item with Continue On Fail, without json.error (a soft failure would resend)', async () => {
		const to = ['+61412345678', 'nope', '+61412345679'];
		const { ctx, result } = send(
			{ from: 'Bistro', to: (i: number) => to[i], text: 'x' },
			{ items: to.map(() => ({ json: {} })), onError: 'continueRegularOutput' },
		);
		const out = (await result)[0];
		expect(ctx.sent).toHaveLength(2);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[1].json).toMatchObject({
			Sent: false,
			ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
			FieldNames: ['To'],
		});
		expect(out[1].json.error).toBeUndefined();
		// No error output to route it to, so no `error` on the item, which n8n 2.x would turn into {error} only.
		expect(out[1].error).toBeUndefined();
	});

	it('reports the provider refusing a property without SMS as a NodeApiError', async () => {
		const { PropertySid } = await control<{ PropertySid: string }>(
			sb,
			'POST',
			`/accounts/${sb.demo.AccountSid}/properties`,
			{ SmsEnabled: false },
		);
		const { result } = send({
			propertySid: PropertySid,
			from: 'Bistro',
			to: '+61412345678',
			text: 'x',
		});
		await expect(result).rejects.toMatchObject({
			name: 'NodeApiError',
			httpCode: '400',
			context: { ErrorCode: 'SMS_NOT_ENABLED', itemIndex: 0 },
		});
	});

	it('explains a wrong Auth Token', async () => {
		const ctx = executeContext({
			credentials: credentialsFor(sb, 'wrong-token'),
			params: {
				resource: 'message',
				operation: 'send',
				propertySid: sb.demo.PropertySid,
				from: 'Bistro',
				to: '+61412345678',
				text: 'x',
			},
		});
		await expect(node.execute.call(ctx)).rejects.toMatchObject({
			httpCode: '401',
			description: expect.stringMatching(/Account SID and Auth Token/),
		});
	});
});
