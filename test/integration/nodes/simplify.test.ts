// Simplify (node version 1.1): where CloudTel answers with more than 10 fields (a Message, an
// Address), new nodes output the fields a workflow goes on with; nodes saved at version 1
// output what they always did; an AI agent's tool always gets the simplified form.
import { describe, expect, it } from 'vitest';
import type { INodeExecutionData } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import type { RunningSandbox } from '../../../sandbox/src';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { executeContext, type ExecuteOptions } from './fakeN8n';
import { credentialsFor, sandboxForFile } from './sandboxControl';

const node = new CloudTel();
let sb: RunningSandbox;
sandboxForFile((started) => (sb = started));

async function run(params: ExecuteOptions['params'], extra: Partial<ExecuteOptions> = {}) {
	const ctx = executeContext({
		credentials: credentialsFor(sb),
		params: { propertySid: sb.demo.PropertySid, ...params },
		...extra,
	});
	return (await node.execute.call(ctx))[0];
}

const keys = (item: INodeExecutionData) => Object.keys(item.json);
const contact = (customerId: string): INodeExecutionData => ({ json: { customerId } });
const SEND = {
	resource: 'message',
	operation: 'send',
	from: 'Bistro',
	to: '+61412345678',
	text: 'Table for two at 7?',
	options: { ExternalId: 'booking-7' },
};
const ADD = {
	resource: 'address',
	operation: 'add',
	line1: '1 George St',
	city: 'Sydney',
	countryCode: 'au',
	additionalFields: {
		Friendly: 'Head office',
		Reference: 'hq-1',
		Line2: 'Level 3',
		PostalCode: '2000',
		Region: 'NSW',
	},
};

// The fields a Send answered with at version 1, as the node output them before Simplify
// existed (the input's customerId first, then the provider's Message, then CreatedIso).
const FULL_MESSAGE = [
	'customerId',
	'MessageSid',
	'AccountSid',
	'PropertySid',
	'From',
	'To',
	'Text',
	'DeliveryReceipt',
	'NumSegments',
	'Status',
	'Direction',
	'Created',
	'CreatedIso',
	'ErrorCode',
	'ExternalId',
];
const SIMPLE_MESSAGE = [
	'customerId',
	'MessageSid',
	'Status',
	'From',
	'To',
	'NumSegments',
	'ExternalId',
	'ErrorCode',
	'Created',
	'CreatedIso',
];

describe('Simplify', () => {
	it('is a switch of its own on Send, Send Batch and Add Address, on for new nodes and off at version 1', () => {
		expect(node.description.version).toEqual([1, 1.1]);
		expect(node.description.defaultVersion).toBe(1.1);
		const switches = node.description.properties.filter((p) => p.name === 'simplify');
		const shown = switches.map((p) => [
			p.displayOptions?.show?.operation,
			p.displayOptions?.show?.['@version'],
			p.default,
		]);
		const v1 = [1];
		const v11 = [{ _cnd: { gte: 1.1 } }];
		expect(shown).toEqual([
			[['add'], v1, false],
			[['add'], v11, true],
			[['send'], v1, false],
			[['send'], v11, true],
			[['sendBatch'], v1, false],
			[['sendBatch'], v11, true],
		]);
	});

	it("reads, by n8n's own resolution of a saved node's parameters, as off at version 1 and on from 1.1", () => {
		const simplifyAt = (typeVersion: number, operation: string) =>
			NodeHelpers.getNodeParameters(
				node.description.properties,
				{ resource: operation === 'add' ? 'address' : 'message', operation },
				true,
				false,
				{ typeVersion },
				node.description,
			)?.simplify;
		for (const operation of ['send', 'sendBatch', 'add']) {
			expect([simplifyAt(1, operation), simplifyAt(1.1, operation)], operation).toEqual([
				false,
				true,
			]);
		}
	});

	it('Send at version 1.1 outputs the simplified Message beside the input fields; off, the whole Message', async () => {
		const [simple] = await run(SEND, { typeVersion: 1.1, items: [contact('c-1')] });
		expect(keys(simple)).toEqual(SIMPLE_MESSAGE);
		expect(simple.json).toMatchObject({
			customerId: 'c-1',
			From: 'Bistro',
			To: '+61412345678',
			ExternalId: 'booking-7',
			NumSegments: 1,
		});
		const [full] = await run(
			{ ...SEND, simplify: false },
			{ typeVersion: 1.1, items: [contact('c-1')] },
		);
		expect(keys(full)).toEqual(FULL_MESSAGE);
	});

	it('a Send saved at version 1 (no Simplify in its parameters) outputs exactly what it did before', async () => {
		// The node as an n8n workflow saved before version 1.1 holds it: defaults left out.
		const saved = {
			typeVersion: 1,
			parameters: {
				resource: 'message',
				propertySid: sb.demo.PropertySid,
				from: 'Bistro',
				to: '+61412345678',
				text: 'Table for two at 7?',
				options: { ExternalId: 'booking-7' },
			},
		};
		const [item] = await run(
			{ operation: 'send', ...saved.parameters },
			{ typeVersion: saved.typeVersion, items: [contact('c-1')] },
		);
		expect(keys(item)).toEqual(FULL_MESSAGE);
		expect(item.json).toMatchObject({
			customerId: 'c-1',
			AccountSid: sb.demo.AccountSid,
			PropertySid: sb.demo.PropertySid,
			From: 'Bistro',
			To: '+61412345678',
			Text: 'Table for two at 7?',
			DeliveryReceipt: true,
			NumSegments: 1,
			Direction: 'Outbound',
			ErrorCode: '',
			ExternalId: 'booking-7',
		});
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('Send Batch simplifies each sent message, reading Simplify per item when it is an expression; version 1 keeps them whole', async () => {
		const items = [contact('c-1'), contact('c-2')];
		const batch = { ...SEND, operation: 'sendBatch', to: (i: number) => `+6141234567${i}` };
		const perItem = await run(
			{ ...batch, simplify: (i: number) => i === 0 },
			{ typeVersion: 1.1, items },
		);
		expect(perItem.map(keys)).toEqual([SIMPLE_MESSAGE, FULL_MESSAGE]);
		expect(perItem.map((i) => i.json.customerId)).toEqual(['c-1', 'c-2']);
		const old = await run(batch, { typeVersion: 1, items });
		expect(old.map(keys)).toEqual([FULL_MESSAGE, FULL_MESSAGE]);
	});

	it('Add Address at version 1.1 outputs its Sid, Status and what tells it apart; version 1 the whole Address', async () => {
		const [simple] = await run(ADD, { typeVersion: 1.1, items: [contact('c-1')] });
		expect(simple.json).toEqual({
			customerId: 'c-1',
			AddressSid: expect.any(String),
			Status: expect.any(String),
			Friendly: 'Head office',
			Reference: 'hq-1',
			Line1: '1 George St',
			City: 'Sydney',
			PostalCode: '2000',
			CountryCode: 'AU',
		});
		const [full] = await run(ADD, { typeVersion: 1, items: [contact('c-1')] });
		expect(full.json).toMatchObject({
			AccountSid: sb.demo.AccountSid,
			Region: 'NSW',
			Line1: '1 George St',
		});
		// The whole Address: the customerId and 11 fields of CloudTel's.
		expect(keys(full)).toHaveLength(12);
	});

	it("used as an AI agent's tool, returns the simplified form even with Simplify off, at either version", async () => {
		for (const typeVersion of [1, 1.1]) {
			const [item] = await run(
				{ ...SEND, simplify: false },
				{ typeVersion, type: 'n8n-nodes-cloudtel.cloudTelTool', items: [contact('c-1')] },
			);
			expect(keys(item), `version ${typeVersion}`).toEqual(SIMPLE_MESSAGE);
		}
	});
});
