import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
beforeAll(async () => {
	sb = await SandboxClient.start();
});
afterAll(() => sb.close());

const trunk = (body: unknown) =>
	sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/SipTrunk`, body);
const ipTrunk = {
	Name: 'Office',
	DefaultCallerId: '+61290001234',
	Type: 0,
	SipTrunkIpAddresses: [{ IpAddress: '203.0.114.0/24' }, { IpAddress: '8.8.8.8' }],
};
const authTrunk = {
	Name: 'Remote',
	DefaultCallerId: '+61390001234',
	Type: 1,
	SipTrunkCredentials: { Realm: 'sip.example.com', Password: 'Tr0nk-Secret' },
	ChannelLimit: 4,
};

describe('create SIP trunk', () => {
	it('creates an IP trunk and an authenticated trunk', async () => {
		for (const body of [ipTrunk, authTrunk]) {
			const r = await trunk(body);
			expect(r.status).toBe(200);
			expect(r.body).toEqual({ SipTrunkSid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
		}
	});

	it.each([
		[
			{ ...ipTrunk, SipTrunkIpAddresses: [{ IpAddress: '203.0.114.0/23' }] },
			'SipTrunkIpAddresses[0].IpAddress',
		],
		[
			{ ...ipTrunk, SipTrunkIpAddresses: [{ IpAddress: '192.168.1.1' }] },
			'SipTrunkIpAddresses[0].IpAddress',
		],
		[{ ...ipTrunk, SipTrunkIpAddresses: [] }, 'SipTrunkIpAddresses'],
		[{ ...ipTrunk, SipTrunkCredentials: authTrunk.SipTrunkCredentials }, 'SipTrunkCredentials'],
		[
			{ ...authTrunk, SipTrunkCredentials: { Realm: 'r', Password: 'Aaa1!aaaaa' } },
			'SipTrunkCredentials.Password',
		],
		[{ ...authTrunk, SipTrunkCredentials: undefined }, 'SipTrunkCredentials'],
		[{ ...authTrunk, DefaultCallerId: '+611300123456' }, 'DefaultCallerId'],
		[{ ...authTrunk, DefaultCallerId: '+611800123456' }, 'DefaultCallerId'],
		[{ ...authTrunk, DefaultCallerId: '+6491234567' }, 'DefaultCallerId'],
		[{ ...authTrunk, Type: 2 }, 'Type'],
		[{ ...authTrunk, ChannelLimit: 0 }, 'ChannelLimit'],
		[
			{ ...authTrunk, SipTrunkAllowedCountries: [{ CountryCode: 'aus' }] },
			'SipTrunkAllowedCountries[0].CountryCode',
		],
		[{ ...authTrunk, Name: '' }, 'Name'],
	])('refuses %j naming %s', async (body, field) => {
		const r = await trunk(body);
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors.map((e: any) => e.FieldName)).toContain(field);
	});
});

describe('addresses', () => {
	const add = (body: unknown, accountSid = sb.demo.AccountSid) =>
		sb.call('POST', `/v2/Accounts/${accountSid}/Addresses`, body);

	it('adds an approved address with every field', async () => {
		const input = {
			Friendly: 'HQ',
			Reference: 'r1',
			Line1: '1 George St',
			Line2: 'Level 2',
			City: 'Sydney',
			Region: 'NSW',
			CountryCode: 'AU',
			PostalCode: '2000',
		};
		const r = await add(input);
		expect(r.status).toBe(200);
		expect(r.body.Address).toEqual({
			...input,
			AddressSid: expect.any(String),
			AccountSid: sb.demo.AccountSid,
			Status: 'Approved',
		});
	});

	it('names every missing field', async () => {
		const r = await add({ CountryCode: 'Australia' });
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors.map((e: any) => e.FieldName).sort()).toEqual([
			'City',
			'CountryCode',
			'Line1',
		]);
	});

	it('refuses deletion while a number relies on the address, then allows it', async () => {
		const a = (await add({ Line1: '2 Pitt St', City: 'Sydney', CountryCode: 'AU' })).body.Address;
		const number = await sb.call(
			'POST',
			'/_sandbox/numbers',
			{ AccountSid: sb.demo.AccountSid, Number: '+61291112222', AddressSid: a.AddressSid },
			{ auth: null },
		);
		expect(number.status).toBe(201);
		const refused = await sb.call('DELETE', `/v2/Addresses/${a.AddressSid}`);
		expect(refused.status).toBe(400);
		expect(refused.body.ResponseStatus.ErrorCode).toBe('ADDRESS_IN_USE');
		expect(
			(
				await sb.call(
					'DELETE',
					`/_sandbox/numbers/${encodeURIComponent('+61291112222')}`,
					undefined,
					{ auth: null },
				)
			).status,
		).toBe(204);
		const deleted = await sb.call('DELETE', `/v2/Addresses/${a.AddressSid}`);
		expect(deleted.status).toBe(200);
		expect(deleted.body).toEqual({ AddressSid: a.AddressSid });
		expect((await sb.call('DELETE', `/v2/Addresses/${a.AddressSid}`)).status).toBe(404);
	});

	it('keeps numbers and addresses within their account', async () => {
		const other = await sb.newAccount();
		const a = (await add({ Line1: '3 King St', City: 'Sydney', CountryCode: 'AU' })).body.Address;
		const r = await sb.call(
			'POST',
			'/_sandbox/numbers',
			{ AccountSid: other.AccountSid, Number: '+61291113333', AddressSid: a.AddressSid },
			{ auth: null },
		);
		expect(r.status).toBe(404);
		expect(
			(await sb.call('DELETE', `/v2/Addresses/${a.AddressSid}`, undefined, { auth: other.auth }))
				.status,
		).toBe(404);
		expect(
			(await sb.call('DELETE', '/_sandbox/numbers/+61200000000', undefined, { auth: null })).status,
		).toBe(404);
	});
});
