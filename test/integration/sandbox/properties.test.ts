import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
beforeAll(async () => {
	sb = await SandboxClient.start();
});
afterAll(() => sb.close());

const record = async (sid: string) =>
	(await sb.call('GET', `/_sandbox/properties/${sid}`, undefined, { auth: null })).body;
const patch = (sid: string, body: unknown, options = {}) =>
	sb.call('PATCH', `/v2/Properties/${sid}`, body, options);
const send = (sid: string) =>
	sb.call('POST', `/v2/Properties/${sid}/Messages`, { To: '+61412345678', Text: 'hi' });

describe('update property', () => {
	it('changes every updatable field, and only those given', async () => {
		const { PropertySid } = await sb.newAccount();
		const before = await record(sb.demo.PropertySid);
		const body = {
			Name: 'Renamed',
			MainDomain: 'shop.example.com',
			TimeZone: 'W. Australia Standard Time',
			CallRecordingEnabled: true,
			IntegrationsEnabled: true,
		};
		expect((await patch(sb.demo.PropertySid, body)).status).toBe(204);
		expect(await record(sb.demo.PropertySid)).toEqual({ ...before, ...body });
		expect(PropertySid).not.toBe(sb.demo.PropertySid);
	});

	it.each([
		[{ TimeZone: 'Australia/Sydney' }, 'TimeZone', 'INVALID_TIMEZONE'],
		[{ MainDomain: 'not a domain' }, 'MainDomain', 'INVALID_DOMAIN'],
		[{ Active: 'false' }, 'Active', 'INVALID_TYPE'],
		[{ Name: '' }, 'Name', 'FIELD_REQUIRED'],
		[{ Name: null }, 'Name', 'NULL_NOT_ALLOWED'],
		[{ Owner: 'me' }, 'Owner', 'UNKNOWN_FIELD'],
	])('refuses %j', async (body, field, code) => {
		const r = await patch(sb.demo.PropertySid, body);
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors[0]).toMatchObject({ FieldName: field, ErrorCode: code });
	});

	it('refuses a body that is not an object', async () => {
		expect((await patch(sb.demo.PropertySid, [1, 2])).status).toBe(400);
		expect(
			(await patch(sb.demo.PropertySid, undefined, { raw: '{"Name":' })).body.ResponseStatus
				.ErrorCode,
		).toBe('FormatException');
	});
});

describe('sending needs SMS enabled and an Active property', () => {
	it('stops and restarts sending with SmsEnabled and Active', async () => {
		const a = await sb.newAccount();
		const call = (method: string, path: string, body?: unknown) =>
			sb.call(method, path, body, { auth: a.auth });
		expect(
			(
				await call('POST', `/v2/Properties/${a.PropertySid}/Messages`, {
					To: '+61412345678',
					Text: 'x',
				})
			).status,
		).toBe(200);
		await call('PATCH', `/v2/Properties/${a.PropertySid}`, { SmsEnabled: false });
		const off = await call('POST', `/v2/Properties/${a.PropertySid}/Messages`, {
			To: '+61412345678',
			Text: 'x',
		});
		expect(off.body.ResponseStatus.ErrorCode).toBe('SMS_NOT_ENABLED');
		await call('PATCH', `/v2/Properties/${a.PropertySid}`, { SmsEnabled: true, Active: false });
		const inactive = await call('POST', `/v2/Properties/${a.PropertySid}/BatchMessages`, {
			Messages: [{ To: '+61412345678', Text: 'x' }],
		});
		expect(inactive.status).toBe(400);
		expect(inactive.body.ResponseStatus.ErrorCode).toBe('PROPERTY_INACTIVE');
		await call('PATCH', `/v2/Properties/${a.PropertySid}`, { Active: true });
		expect(
			(
				await call('POST', `/v2/Properties/${a.PropertySid}/Messages`, {
					To: '+61412345678',
					Text: 'x',
				})
			).status,
		).toBe(200);
	});

	it('refuses an account that is not SMS-enabled', async () => {
		const a = await sb.newAccount(false);
		const r = await sb.call(
			'POST',
			`/v2/Properties/${a.PropertySid}/Messages`,
			{ To: '+61412345678', Text: 'x' },
			{ auth: a.auth },
		);
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Message).toMatch(/account/);
	});

	it('refuses a property created disabled through the control API', async () => {
		const a = await sb.newAccount();
		const p = await sb.call(
			'POST',
			`/_sandbox/accounts/${a.AccountSid}/properties`,
			{ SmsEnabled: false },
			{ auth: null },
		);
		expect(p.status).toBe(201);
		expect(
			(
				await sb.call(
					'POST',
					`/v2/Properties/${p.body.PropertySid}/Messages`,
					{ To: '+61412345678', Text: 'x' },
					{ auth: a.auth },
				)
			).status,
		).toBe(400);
		expect(await send(sb.demo.PropertySid).then((r) => r.status)).toBe(200);
	});
});
