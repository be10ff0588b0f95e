// The operations the other scenarios do not reach (Property, SIP Trunk, Address, Send, a
// provider error), each run inside n8n and checked against the sandbox; then a check that
// every operation the node offers has run inside n8n at least once during this run.
import assert from 'node:assert/strict';
import { nodeOperations } from '../lib/package.mjs';
import { ranOperations, runCloudTel } from '../lib/steps.mjs';

export const title = 'Every operation of the CloudTel node, inside n8n';

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const { AccountSid, PropertySid } = sandbox.demo;

	await test('Message > Send: one message per item, as the sandbox holds it', async () => {
		const tag = `send-${Date.now()}`;
		const step = await runCloudTel(
			ctx,
			{
				resource: 'message',
				operation: 'send',
				propertySid: PropertySid,
				from: '+61400000001',
				to: '={{ $json.to }}',
				text: 'Ünïcode ✓ text',
				options: { ExternalId: '={{ $json.id }}', DeliveryReceipt: false },
			},
			{
				input: [
					{ to: '+61412340001', id: `${tag}-0` },
					{ to: '+61412340002', id: `${tag}-1` },
				],
			},
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.equal(step.items.length, 2);
		const stored = await sandbox.control.messages({ PropertySid });
		step.items.forEach((item, i) => {
			assert.equal(item.pairedItem?.item, i);
			const held = stored.find((m) => m.MessageSid === item.json.MessageSid);
			assert.ok(held, `message ${i} in the sandbox`);
			assert.equal(held.ExternalId, `${tag}-${i}`);
			assert.equal(held.Text, 'Ünïcode ✓ text');
			assert.equal(held.From, '+61400000001');
		});
	});

	await test('Property > Update: only the fields set change', async () => {
		// A property of its own, so the demo property stays SMS-enabled for the others.
		const created = await sandbox.control.addProperty(AccountSid, { Name: 'Before' });
		assert.equal(created.status, 201, JSON.stringify(created.body));
		const sid = created.body.PropertySid;
		const before = await sandbox.control.property(sid);
		const step = await runCloudTel(ctx, {
			resource: 'property',
			operation: 'update',
			propertySid: sid,
			updateFields: {
				Name: 'After',
				TimeZone: 'AUS Eastern Standard Time',
				SmsEnabled: false,
				MainDomain: 'example.com',
			},
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		const after = await sandbox.control.property(sid);
		assert.equal(after.Name, 'After');
		assert.equal(after.TimeZone, 'AUS Eastern Standard Time');
		assert.equal(after.SmsEnabled, false);
		assert.equal(after.MainDomain, 'example.com');
		assert.equal(after.Active, before.Active, 'Active untouched');
		assert.equal(step.json[0].PropertySid, sid);
	});

	await test('SIP Trunk > Create (IP to IP): the sandbox answers a SipTrunkSid', async () => {
		const step = await runCloudTel(ctx, {
			resource: 'sipTrunk',
			operation: 'create',
			propertySid: PropertySid,
			name: 'Head office',
			defaultCallerId: '+61212345678',
			type: 0,
			ipAddresses: { address: [{ IpAddress: '8.8.8.8' }, { IpAddress: '1.1.1.0/24' }] },
			additionalFields: { ChannelLimit: 4, allowedCountries: 'AU, NZ' },
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.match(step.json[0].SipTrunkSid, /^[0-9a-f-]{36}$/);
	});

	await test('SIP Trunk > Create with a private IP: refused before sending, naming the field', async () => {
		const step = await runCloudTel(ctx, {
			resource: 'sipTrunk',
			operation: 'create',
			propertySid: PropertySid,
			name: 'Bad',
			defaultCallerId: '+61212345678',
			type: 0,
			ipAddresses: { address: [{ IpAddress: '10.0.0.1' }] },
		});
		assert.equal(step.status, 'error');
		assert.match(JSON.stringify(step.error), /IpAddress/);
	});

	let addressSid;
	const number = '+61299990000';
	await test('Address > Add: the new address exists (a number can rely on it)', async () => {
		const step = await runCloudTel(ctx, {
			resource: 'address',
			operation: 'add',
			line1: '1 Martin Place',
			city: 'Sydney',
			countryCode: 'AU',
			additionalFields: { PostalCode: '2000', Region: 'NSW' },
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		const [address] = step.json;
		addressSid = address.AddressSid;
		assert.match(addressSid, /^[0-9a-f-]{36}$/);
		assert.equal(address.Line1, '1 Martin Place');
		assert.equal(address.Status, 'Approved');
		const attached = await sandbox.control.numbers({
			AccountSid,
			Number: number,
			AddressSid: addressSid,
		});
		assert.equal(attached.status, 201, JSON.stringify(attached.body));
	});

	await test('Address > Delete while a number relies on it: the provider error reaches n8n (continue on fail)', async () => {
		assert.ok(addressSid, 'needs the added address');
		const step = await runCloudTel(
			ctx,
			{ resource: 'address', operation: 'delete', addressSid },
			{ onError: 'continueRegularOutput' },
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.equal(step.items.length, 1);
		const [item] = step.items;
		assert.ok(item.json.error, `an error item: ${JSON.stringify(item.json)}`);
		assert.equal(item.error?.name, 'NodeApiError');
		assert.equal(item.error?.context?.ErrorCode, 'ADDRESS_IN_USE');
		assert.match(item.json.error, /ADDRESS_IN_USE/);
		assert.equal(item.pairedItem?.item, 0);
	});

	await test('Address > Delete: once no number relies on it, the address is gone', async () => {
		assert.ok(addressSid, 'needs the added address');
		const freed = await fetch(`${sandbox.url}/_sandbox/numbers/${encodeURIComponent(number)}`, {
			method: 'DELETE',
		});
		assert.equal(freed.status, 204);
		const step = await runCloudTel(ctx, { resource: 'address', operation: 'delete', addressSid });
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.equal(step.json[0].AddressSid, addressSid);
		assert.equal(step.json[0].deleted, true);
		const again = await sandbox.control.numbers({
			AccountSid,
			Number: number,
			AddressSid: addressSid,
		});
		assert.notEqual(again.status, 201, 'no number can rely on a deleted address');
	});

	await test('every operation of the node has run inside n8n', () => {
		const missing = nodeOperations().filter((op) => !ranOperations(ctx).has(op));
		assert.deepEqual(missing, [], `never ran in n8n: ${missing.join(', ')}`);
	});
}
