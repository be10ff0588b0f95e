import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { executeContext, splitErrorOutput, type ExecuteOptions } from './fakeN8n';
import { control, credentialsFor, sandboxForFile } from './sandboxControl';

const node = new CloudTel();
let sb: RunningSandbox;
sandboxForFile((started) => (sb = started));

function run(params: ExecuteOptions['params'], extra: Partial<ExecuteOptions> = {}) {
	const ctx = executeContext({ credentials: credentialsFor(sb), params, ...extra });
	return { ctx, result: node.execute.call(ctx) };
}

describe('Property: Update', () => {
	it('sends a merge patch of only the fields set', async () => {
		const { PropertySid } = await control<{ PropertySid: string }>(
			sb,
			'POST',
			`/accounts/${sb.demo.AccountSid}/properties`,
			{ Name: 'Before' },
		);
		const { ctx, result } = run({
			resource: 'property',
			operation: 'update',
			propertySid: PropertySid,
			updateFields: {
				Name: 'Bistro',
				TimeZone: 'AUS Eastern Standard Time',
				CallRecordingEnabled: true,
				MainDomain: 'bistro.example.com',
			},
		});
		expect((await result)[0]).toEqual([
			{
				json: {
					PropertySid,
					Name: 'Bistro',
					TimeZone: 'AUS Eastern Standard Time',
					CallRecordingEnabled: true,
					MainDomain: 'bistro.example.com',
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(ctx.sent[0]).toMatchObject({
			method: 'PATCH',
			status: 204,
			headers: { 'Content-Type': 'application/merge-patch+json' },
		});
		expect(await control(sb, 'GET', `/properties/${PropertySid}`)).toMatchObject({
			Name: 'Bistro',
			CallRecordingEnabled: true,
			SmsEnabled: true,
			Active: true,
		});
	});

	it('refuses an unknown time zone before sending', async () => {
		const { ctx, result } = run({
			resource: 'property',
			operation: 'update',
			propertySid: sb.demo.PropertySid,
			updateFields: { TimeZone: 'Mars/Olympus' },
		});
		await expect(result).rejects.toMatchObject({
			context: { FieldNames: ['TimeZone'], itemIndex: 0 },
		});
		expect(ctx.sent).toHaveLength(0);
	});

	it('refuses an empty update', async () => {
		await expect(
			run({
				resource: 'property',
				operation: 'update',
				propertySid: sb.demo.PropertySid,
				updateFields: {},
			}).result,
		).rejects.toMatchObject({ description: expect.stringMatching(/at least one field/) });
	});
});

describe('SIP Trunk: Create', () => {
	const base = {
		resource: 'sipTrunk',
		operation: 'create',
		name: 'Office',
		defaultCallerId: '+61212345678',
	};

	it('creates an IP to IP trunk from its addresses', async () => {
		const { ctx, result } = run({
			...base,
			propertySid: sb.demo.PropertySid,
			type: 0,
			ipAddresses: { address: [{ IpAddress: '8.8.8.8' }, { IpAddress: '1.1.1.0/24' }] },
			additionalFields: { allowedCountries: 'AU, NZ', ChannelLimit: 4, CustomerReference: 'ref-1' },
		});
		expect((await result)[0][0]).toEqual({
			json: { SipTrunkSid: expect.any(String) },
			pairedItem: { item: 0 },
		});
		expect(ctx.sent[0].body).toEqual({
			Name: 'Office',
			DefaultCallerId: '+61212345678',
			Type: 0,
			SipTrunkIpAddresses: [{ IpAddress: '8.8.8.8' }, { IpAddress: '1.1.1.0/24' }],
			SipTrunkAllowedCountries: [{ CountryCode: 'AU' }, { CountryCode: 'NZ' }],
			ChannelLimit: 4,
			CustomerReference: 'ref-1',
		});
	});

	it('creates an authenticated trunk from its credentials', async () => {
		const { ctx, result } = run({
			...base,
			propertySid: sb.demo.PropertySid,
			type: 1,
			realm: 'sip.example.com',
			password: 'Tr0nk!Secret',
		});
		expect((await result)[0][0].json.SipTrunkSid).toEqual(expect.any(String));
		expect(ctx.sent[0].body).toMatchObject({
			Type: 1,
			SipTrunkCredentials: { Realm: 'sip.example.com', Password: 'Tr0nk!Secret' },
		});
		expect(ctx.sent[0].body).not.toHaveProperty('SipTrunkIpAddresses');
	});

	it('refuses a private address by its field path, sending nothing', async () => {
		const { ctx, result } = run({
			...base,
			propertySid: sb.demo.PropertySid,
			type: 0,
			ipAddresses: { address: [{ IpAddress: '10.0.0.1' }] },
		});
		await expect(
			run({
				...base,
				propertySid: sb.demo.PropertySid,
				type: 0,
				ipAddresses: { address: [{ IpAddress: '10.0.0.1' }] },
			}).result,
		).rejects.toMatchObject({
			// A short title naming the field as the node shows it; the path and the reason below it, once.
			message: expect.stringMatching(/^Invalid IP Address: [A-Z_]+$/),
			description: expect.stringMatching(/SipTrunkIpAddresses\[0\]\.IpAddress/),
		});
		await expect(result).rejects.toMatchObject({
			context: { FieldNames: ['SipTrunkIpAddresses[0].IpAddress'] },
		});
		expect(ctx.sent).toHaveLength(0);
	});
});

describe('Address: Add and Delete', () => {
	it("adds an address to the credential's account and deletes it", async () => {
		const added = await run({
			resource: 'address',
			operation: 'add',
			line1: '1 George St',
			city: 'Sydney',
			countryCode: 'AU',
			additionalFields: { PostalCode: '2000', Friendly: 'Head office' },
		}).result;
		const address = added[0][0].json;
		expect(address).toMatchObject({
			AccountSid: sb.demo.AccountSid,
			Line1: '1 George St',
			PostalCode: '2000',
			Friendly: 'Head office',
			Status: 'Approved',
		});

		const deleted = await run({
			resource: 'address',
			operation: 'delete',
			addressSid: address.AddressSid,
		}).result;
		expect(deleted[0]).toEqual([
			{ json: { AddressSid: address.AddressSid, deleted: true }, pairedItem: { item: 0 } },
		]);
	});

	it('accepts a lower-case country code, sending it upper-case', async () => {
		const { ctx, result } = run({
			resource: 'address',
			operation: 'add',
			line1: '1 George St',
			city: 'Sydney',
			countryCode: ' au ',
		});
		expect((await result)[0][0].json).toMatchObject({ CountryCode: 'AU' });
		expect(ctx.sent[0].body).toMatchObject({ CountryCode: 'AU' });
	});

	it('refuses a country code that is not two letters before sending', async () => {
		const { ctx, result } = run({
			resource: 'address',
			operation: 'add',
			line1: '1 George St',
			city: 'Sydney',
			countryCode: 'AUS',
		});
		await expect(result).rejects.toMatchObject({ context: { FieldNames: ['CountryCode'] } });
		expect(ctx.sent).toHaveLength(0);
	});

	it('puts no json.error on a failed add or SIP trunk create, so Retry On Fail never creates the others twice', async () => {
		const items = [{ json: {} }, { json: {} }];
		const cities = ['', 'Sydney'];
		const added = await run(
			{
				resource: 'address',
				operation: 'add',
				line1: '3 King St',
				city: (i: number) => cities[i],
				countryCode: 'AU',
			},
			{ items, onError: 'continueErrorOutput' },
		).result;
		expect(added[0][0].json).not.toHaveProperty('error');
		expect(added[0][0]).toMatchObject({
			json: { Created: false, FieldNames: ['City'] },
			error: expect.anything(),
		});
		expect(added[0][1].json).toMatchObject({ City: 'Sydney' });

		const names = ['', 'Second'];
		const trunks = await run(
			{
				resource: 'sipTrunk',
				operation: 'create',
				defaultCallerId: '+61212345678',
				propertySid: sb.demo.PropertySid,
				type: 0,
				name: (i: number) => names[i],
				ipAddresses: { address: [{ IpAddress: '8.8.8.8' }] },
			},
			{ items, onError: 'continueErrorOutput' },
		).result;
		expect(trunks[0][0].json).not.toHaveProperty('error');
		expect(trunks[0][0]).toMatchObject({ json: { Created: false }, error: expect.anything() });
		expect(trunks[0][1].json).toMatchObject({ SipTrunkSid: expect.any(String) });
	});

	it('sends a delete refused while a number relies on the address to the error output', async () => {
		const address = (
			await run({
				resource: 'address',
				operation: 'add',
				line1: '2 Pitt St',
				city: 'Sydney',
				countryCode: 'AU',
			}).result
		)[0][0].json;
		await control(sb, 'POST', '/numbers', {
			AccountSid: sb.demo.AccountSid,
			Number: '+61290000001',
			AddressSid: address.AddressSid,
		});
		const out = await run(
			{ resource: 'address', operation: 'delete', addressSid: address.AddressSid },
			{ onError: 'continueErrorOutput' },
		).result;
		const { success, error } = splitErrorOutput(out[0]);
		expect(success).toHaveLength(0);
		expect(error[0]).toMatchObject({
			pairedItem: { item: 0 },
			json: { ErrorCode: 'ADDRESS_IN_USE' },
		});
		expect(error[0].error).toMatchObject({ name: 'NodeApiError', httpCode: '400' });
	});
});
