import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
beforeAll(async () => {
	sb = await SandboxClient.start();
});
afterAll(() => sb.close());

const batch = (body: unknown, options = {}) =>
	sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/BatchMessages`, body, options);
const msg = (i: number, extra: Record<string, unknown> = {}) => ({
	To: `+614123${String(i).padStart(5, '0')}`,
	Text: `Hi ${i}`,
	ExternalId: `c:${i}`,
	...extra,
});

describe('send a batch', () => {
	it('answers 200 with one element per message, in request order, failures in place', async () => {
		const r = await batch({
			Messages: [
				msg(1),
				{ To: '0412', Text: 'bad' },
				msg(3, { From: 'ACME' }),
				'not an object',
				{ Text: '' },
			],
		});
		expect(r.status).toBe(200);
		expect(r.body).toHaveLength(5);
		expect(r.body[0]).toMatchObject({
			To: '+61412300001',
			ExternalId: 'c:1',
			Status: 'Processing',
			Direction: 'Outbound',
			ErrorCode: '',
			NumSegments: 1,
			DeliveryReceipt: true,
		});
		expect(typeof r.body[0].Created).toBe('number');
		expect(r.body[1]).toEqual({
			ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
			Message: expect.stringContaining('E.164'),
			Errors: [
				expect.objectContaining({ FieldName: 'To', ErrorCode: 'INVALID_PHONENUMBER_FORMAT' }),
			],
		});
		expect(r.body[2]).toMatchObject({ From: 'ACME', ExternalId: 'c:3' });
		expect(r.body[3].ErrorCode).toBe('INVALID_TYPE');
		expect(r.body[4].Errors.map((e: any) => e.FieldName).sort()).toEqual(['Text', 'To']);
		const stored = (await sb.messages()).filter((m) => m.ExternalId?.startsWith('c:'));
		expect(stored.map((m) => m.ExternalId).sort()).toEqual(['c:1', 'c:3']);
	});

	it('takes 1000 messages and refuses 1001 whole', async () => {
		const ok = await batch({
			Messages: Array.from({ length: 1000 }, (_, i) => msg(i, { ExternalId: `k:${i}` })),
		});
		expect(ok.status).toBe(200);
		expect(ok.body.filter((e: any) => e.MessageSid)).toHaveLength(1000);
		const before = (await sb.messages()).length;
		const tooMany = await batch({ Messages: Array.from({ length: 1001 }, (_, i) => msg(i)) });
		expect(tooMany.status).toBe(400);
		expect(tooMany.body.ResponseStatus.ErrorCode).toBe('BATCH_TOO_LARGE');
		expect((await sb.messages()).length).toBe(before);
	});

	it.each([
		[{ Messages: [] }, 'BATCH_EMPTY'],
		[{ Messages: 'x' }, 'INVALID_TYPE'],
		[{}, 'FIELD_REQUIRED'],
		[[msg(1)], 'FIELD_REQUIRED'],
	])('fails the whole request for %j', async (body, code) => {
		const r = await batch(body);
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.ErrorCode).toBe(code);
	});

	it('answers FormatException when the body cannot be decoded', async () => {
		const r = await batch(undefined, { raw: '{"Messages": [' });
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus).toMatchObject({ ErrorCode: 'FormatException' });
	});

	it('accepts only JSON', async () => {
		const r = await batch(undefined, {
			raw: 'To=+61412345678',
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.ErrorCode).toBe('UNSUPPORTED_MEDIA_TYPE');
	});

	it('answers 404 for an unknown property even when the envelope is bad', async () => {
		const r = await sb.call(
			'POST',
			'/v2/Properties/00000000-0000-4000-8000-000000000000/BatchMessages',
			{ Messages: [] },
		);
		expect(r.status).toBe(404);
	});
});
