import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { eventually, SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
let catcher: CallbackCatcher;
beforeAll(async () => {
	sb = await SandboxClient.start({ receiptDelayMs: 50 });
	catcher = await CallbackCatcher.start();
});
afterAll(async () => {
	await sb.close();
	await catcher.close();
});

const send = (body: unknown) =>
	sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/Messages`, body);
const stored = async (sid: string) => (await sb.messages()).find((m) => m.MessageSid === sid);

describe('send one SMS', () => {
	it('refuses NUL and lone surrogates in Text, as in a batch and a reply, storing nothing', async () => {
		const before = (await sb.messages()).length;
		// JSON.stringify writes a lone surrogate as \ud83d, which the provider's JSON decodes to one.
		for (const Text of ['Hi\u0000', 'Hi \uD83D', '\uDE00']) {
			const r = await send({ From: '+61400111222', To: '+61412345678', Text });
			expect(r.status).toBe(400);
			expect(r.body.ResponseStatus.Errors).toEqual([
				{
					ErrorCode: 'INVALID_CHARACTER',
					FieldName: 'Text',
					Message: expect.stringMatching(/^Text has a (NUL character|lone surrogate)/),
				},
			]);
		}
		const batch = await sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/BatchMessages`, {
			Messages: [
				{ To: '+61412345678', Text: 'ok' },
				{ To: '+61412345678', Text: 'bad\u0000' },
			],
		});
		expect(batch.status).toBe(200);
		expect(JSON.stringify(batch.body)).toContain('INVALID_CHARACTER');
		expect((await sb.messages()).length).toBe(before + 1);
	});

	it('sends from an E.164 number and keeps the fields it was given', async () => {
		const r = await send({
			From: '+61400111222',
			To: '+61412345678',
			Text: 'Hello',
			ExternalId: 'order-7',
		});
		expect(r.status).toBe(200);
		expect(r.body.Message).toMatchObject({
			AccountSid: sb.demo.AccountSid,
			PropertySid: sb.demo.PropertySid,
			From: '+61400111222',
			To: '+61412345678',
			Text: 'Hello',
			ExternalId: 'order-7',
			NumSegments: 1,
			Direction: 'Outbound',
		});
	});

	it('sends from an alphanumeric ID outside North America', async () => {
		expect(
			(await send({ From: 'ACME Shop', To: '+447700900123', Text: 'x' })).body.Message.From,
		).toBe('ACME Shop');
	});

	it('replaces an alphanumeric ID with a leased number for a +1 recipient', async () => {
		const m = (await send({ From: 'ACME', To: '+14155550123', Text: 'x' })).body.Message;
		expect(m.From).toMatch(/^\+6148/);
		expect((await stored(m.MessageSid)).SenderKind).toBe('leased');
	});

	it.each([undefined, '', '   '])('leases a number when From is %j', async (From) => {
		const m = (await send({ From, To: '+61412000001', Text: 'x' })).body.Message;
		expect(m.From).toMatch(/^\+\d+$/);
	});

	it.each([
		[
			{ From: 'ACME', To: '+61412345678', Text: 'x', WebhookUri: 'https://example.com/r' },
			'WebhookUri',
			'LEASE_ONLY_FIELD',
		],
		[{ From: 'Too long sender', To: '+61412345678', Text: 'x' }, 'From', 'INVALID_SENDER_ID'],
		[{ From: '12345', To: '+61412345678', Text: 'x' }, 'From', 'INVALID_SENDER_ID'],
		[{ To: '0412345678', Text: 'x' }, 'To', 'INVALID_PHONENUMBER_FORMAT'],
		[{ To: '+61412345678' }, 'Text', 'FIELD_REQUIRED'],
		[{ To: '+61412345678', Text: 'x'.repeat(1601) }, 'Text', 'INVALID_TEXT_LENGTH'],
		[
			{ To: '+61412345678', Text: 'x', DeliveryReceiptWebhookUri: 'ftp://example.com' },
			'DeliveryReceiptWebhookUri',
			'INVALID_URI',
		],
		[
			{ To: '+61412345678', Text: 'x', DeliveryReceiptWebhookMethod: 'PUT' },
			'DeliveryReceiptWebhookMethod',
			'INVALID_METHOD',
		],
		[
			{ To: '+61412345678', Text: 'x', ForwardToEmail: 'not-mail' },
			'ForwardToEmail',
			'INVALID_EMAIL',
		],
		[{ To: '+61412345678', Text: 'x', Schedule: 1.5 }, 'Schedule', 'INVALID_TYPE'],
		[{ To: '+61412345678', Text: 'x', DeliveryReceipt: 'true' }, 'DeliveryReceipt', 'INVALID_TYPE'],
	])('refuses %j on %s', async (body, field, code) => {
		const r = await send(body);
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors).toContainEqual(
			expect.objectContaining({ FieldName: field, ErrorCode: code }),
		);
	});

	it('counts segments: 160 GSM characters are one, 161 are two, 71 UCS-2 are two', async () => {
		expect(
			(await send({ To: '+61412345678', Text: 'a'.repeat(160) })).body.Message.NumSegments,
		).toBe(1);
		expect(
			(await send({ To: '+61412345678', Text: 'a'.repeat(161) })).body.Message.NumSegments,
		).toBe(2);
		expect(
			(await send({ To: '+61412345678', Text: 'я'.repeat(71) })).body.Message.NumSegments,
		).toBe(2);
	});

	it('accepts 1600 characters', async () => {
		expect((await send({ To: '+61412345678', Text: 'x'.repeat(1600) })).status).toBe(200);
	});
});

describe('scheduling on the sandbox clock', () => {
	it('holds a scheduled message until its time, then sends and delivers it', async () => {
		const now = await sb.now();
		const m = (await send({ To: '+61412345678', Text: 'later', Schedule: now + 3600 })).body
			.Message;
		expect(m.Status).toBe('Scheduled');
		// Moving the clock runs the sandbox's look for due messages at once: ten seconds early, it stays.
		await sb.advance(3590);
		expect((await stored(m.MessageSid)).Status).toBe('Scheduled');
		await sb.advance(10);
		await eventually(
			async () => (await stored(m.MessageSid)).Status === 'Delivered',
			3000,
			'delivery',
		);
	});

	it('accepts 14 days ahead and refuses 14 days and a second', async () => {
		const now = await sb.now();
		expect((await send({ To: '+61412345678', Text: 'x', Schedule: now + 14 * 86400 })).status).toBe(
			200,
		);
		const far = await send({ To: '+61412345678', Text: 'x', Schedule: now + 14 * 86400 + 2 });
		expect(far.body.ResponseStatus.Errors[0].ErrorCode).toBe('SCHEDULE_TOO_FAR');
	});

	it('sends 59 minutes in the past at once and refuses 61 minutes', async () => {
		const now = await sb.now();
		const recent = await send({ To: '+61412345678', Text: 'x', Schedule: now - 59 * 60 });
		expect(recent.body.Message.Status).toBe('Processing');
		const old = await send({ To: '+61412345678', Text: 'x', Schedule: now - 61 * 60 });
		expect(old.body.ResponseStatus.Errors[0].ErrorCode).toBe('SCHEDULE_IN_PAST');
	});
});

describe('delivery receipts', () => {
	it('calls back with POST JSON after the receipt delay', async () => {
		const uri = `${catcher.url}/receipts/post`;
		const m = (
			await send({
				To: '+61412345678',
				Text: 'x',
				ExternalId: 'e1',
				DeliveryReceiptWebhookUri: uri,
			})
		).body.Message;
		const hit = await eventually(
			() =>
				catcher.requests.find(
					(r) => r.path === '/receipts/post' && r.body?.MessageSid === m.MessageSid,
				),
			3000,
			'receipt',
		);
		expect(hit.method).toBe('POST');
		expect(hit.headers['content-type']).toMatch(/application\/json/);
		expect(hit.body).toMatchObject({
			MessageSid: m.MessageSid,
			AccountSid: sb.demo.AccountSid,
			PropertySid: sb.demo.PropertySid,
			From: m.From,
			To: '+61412345678',
			Status: 'Delivered',
			ErrorCode: '',
			ExternalId: 'e1',
		});
		expect(typeof hit.body.Timestamp).toBe('number');
		expect((await stored(m.MessageSid)).Status).toBe('Delivered');
	});

	it('calls back with GET query parameters, and reports a failing magic number', async () => {
		const uri = `${catcher.url}/receipts/get?token=abc`;
		const m = (
			await send({
				To: '+61412340666',
				Text: 'x',
				DeliveryReceiptWebhookUri: uri,
				DeliveryReceiptWebhookMethod: 'GET',
			})
		).body.Message;
		const hit = await eventually(
			() =>
				catcher.requests.find(
					(r) => r.path === '/receipts/get' && r.query.MessageSid === m.MessageSid,
				),
			3000,
			'receipt',
		);
		expect(hit.method).toBe('GET');
		expect(hit.query).toMatchObject({
			token: 'abc',
			Status: 'Failed',
			ErrorCode: 'UNDELIVERABLE',
			To: '+61412340666',
			AccountSid: sb.demo.AccountSid,
			MessageSid: m.MessageSid,
		});
		expect((await stored(m.MessageSid)).Status).toBe('Failed');
	});

	it('does not call back when DeliveryReceipt is false', async () => {
		const uri = `${catcher.url}/receipts/off`;
		const m = (
			await send({
				To: '+61412345678',
				Text: 'x',
				DeliveryReceipt: false,
				DeliveryReceiptWebhookUri: uri,
			})
		).body.Message;
		await eventually(
			async () => (await stored(m.MessageSid)).Status === 'Delivered',
			3000,
			'delivery',
		);
		// A message sent after it, with a receipt: once that receipt is in, one for the first would be too.
		const mark = (
			await send({
				To: '+61412345678',
				Text: 'x',
				DeliveryReceiptWebhookUri: `${catcher.url}/receipts/mark`,
			})
		).body.Message;
		await eventually(
			() =>
				catcher.requests.some(
					(r) => r.path === '/receipts/mark' && r.body?.MessageSid === mark.MessageSid,
				) || undefined,
			3000,
			'the later receipt',
		);
		expect(catcher.requests.filter((r) => r.path === '/receipts/off')).toHaveLength(0);
	});

	it('retries a receiver that fails, three attempts in all, each logged in the outbox', async () => {
		const failing = await CallbackCatcher.start();
		failing.statuses = [500, 503, 200];
		try {
			const m = (
				await send({ To: '+61412345678', Text: 'x', DeliveryReceiptWebhookUri: `${failing.url}/r` })
			).body.Message;
			await eventually(() => failing.requests.length >= 3 || undefined, 6000, 'three attempts');
			const attempts = (await sb.outbox()).Callbacks.filter((c) => c.MessageSid === m.MessageSid);
			expect(attempts.map((a) => [a.Attempt, a.StatusCode, a.Delivered])).toEqual([
				[1, 500, false],
				[2, 503, false],
				[3, 200, true],
			]);
		} finally {
			await failing.close();
		}
	});

	it('gives up after three attempts when nobody answers', async () => {
		const gone = await CallbackCatcher.start();
		const deadUrl = gone.url;
		await gone.close();
		const m = (
			await send({ To: '+61412345678', Text: 'x', DeliveryReceiptWebhookUri: `${deadUrl}/r` })
		).body.Message;
		const attempts = await eventually(
			async () => {
				const a = (await sb.outbox()).Callbacks.filter((c) => c.MessageSid === m.MessageSid);
				return a.length >= 3 ? a : undefined;
			},
			6000,
			'attempts',
		);
		expect(attempts.every((a) => !a.Delivered && a.Error)).toBe(true);
		await new Promise((r) => setTimeout(r, 1200));
		expect((await sb.outbox()).Callbacks.filter((c) => c.MessageSid === m.MessageSid)).toHaveLength(
			3,
		);
	});

	it('fires a receipt on demand through the control API, even twice', async () => {
		const uri = `${catcher.url}/receipts/manual`;
		const m = (
			await send({
				To: '+61412345678',
				Text: 'x',
				Schedule: (await sb.now()) + 600,
				DeliveryReceiptWebhookUri: uri,
			})
		).body.Message;
		for (const Status of ['Failed', 'Delivered']) {
			const r = await sb.call(
				'POST',
				'/_sandbox/receipts',
				{ MessageSid: m.MessageSid, Status },
				{ auth: null },
			);
			expect(r.body).toEqual({ MessageSid: m.MessageSid, Status });
		}
		const hits = await eventually(
			() => {
				const h = catcher.requests.filter((r) => r.path === '/receipts/manual');
				return h.length === 2 ? h : undefined;
			},
			3000,
			'two receipts',
		);
		expect(hits.map((h) => h.body.Status).sort()).toEqual(['Delivered', 'Failed']);
		expect(
			(
				await sb.call(
					'POST',
					'/_sandbox/receipts',
					{ MessageSid: '00000000-0000-4000-8000-000000000000', Status: 'Delivered' },
					{ auth: null },
				)
			).status,
		).toBe(404);
		expect(
			(
				await sb.call(
					'POST',
					'/_sandbox/receipts',
					{ MessageSid: m.MessageSid, Status: 'Lost' },
					{ auth: null },
				)
			).status,
		).toBe(400);
	});
});
