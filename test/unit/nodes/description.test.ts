import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import {
	BATCH_MAX_MESSAGES,
	SCOPES,
	SEND_MESSAGE_FIELDS,
	SipTrunkType,
	validateCreateSipTrunk,
	WINDOWS_TIME_ZONES,
} from '../../../api';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { CloudTelTrigger } from '../../../nodes/CloudTelTrigger/CloudTelTrigger.node';

const properties = new CloudTel().description.properties;

function shownFor(resource: string, operation: string, name: string) {
	const found = properties.find(
		(p) =>
			p.name === name &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
	if (!found) throw new Error(`no ${name} for ${resource}.${operation}`);
	return found;
}

describe('CloudTel node description', () => {
	// n8n's scan wants literal defaults; these keep the literals equal to api/'s rules.
	it("defaults Batch Size to the provider's batch limit", () => {
		expect(shownFor('message', 'sendBatch', 'batchSize').default).toBe(BATCH_MAX_MESSAGES);
	});

	it('defaults a SIP trunk to IP to IP', () => {
		expect(shownFor('sipTrunk', 'create', 'type').default).toBe(SipTrunkType.IpToIp);
	});
});

describe('CloudTel node in the editor', () => {
	const all = (list: INodeProperties[]): INodeProperties[] =>
		list.flatMap((p) => [
			p,
			...all(
				((p.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap(
					(o) =>
						'values' in o && o.values ? o.values : 'displayName' in o ? [o as INodeProperties] : [],
				),
			),
		]);
	const every = [...all(properties), ...all(new CloudTelTrigger().description.properties)];

	it('names actions without articles', () => {
		const actions = properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => (p.options as INodePropertyOptions[]).map((o) => o.action));
		expect(actions).toContain('Send SMS');
		expect(actions).toContain('Create online login');
		for (const action of actions) expect(action, action).not.toMatch(/\b(a|an|the)\b/i);
	});

	it('starts every example placeholder with "e.g."', () => {
		// Collections' placeholders are the label of their add button, not an example.
		const examples = every.filter(
			(p) => p.placeholder && !['collection', 'fixedCollection'].includes(p.type),
		);
		expect(examples.length).toBeGreaterThan(10);
		for (const p of examples) expect(p.placeholder, p.name).toMatch(/^e\.g\. /);
	});

	it('suggests IP addresses the node itself accepts', () => {
		const ip = every.find((p) => p.name === 'IpAddress')!;
		const examples = String(ip.placeholder)
			.replace(/^e\.g\. /, '')
			.split(' or ');
		expect(examples).toHaveLength(2);
		for (const IpAddress of examples) {
			const trunk = {
				Name: 'Office',
				DefaultCallerId: '+61212345678',
				Type: 0,
				SipTrunkIpAddresses: [{ IpAddress }],
			};
			expect(validateCreateSipTrunk(trunk), IpAddress).toEqual([]);
		}
	});

	it('shows scopes with readable labels and descriptions, sorted, every API scope once', () => {
		const scopes = shownFor('onlineLogin', 'create', 'scopes').options as INodePropertyOptions[];
		expect(scopes.map((o) => o.value).sort()).toEqual([...SCOPES].sort());
		expect(scopes.map((o) => o.name)).toEqual(
			[...scopes.map((o) => o.name)].sort((a, b) =>
				a.localeCompare(b, 'en', { sensitivity: 'base' }),
			),
		);
		expect(scopes.find((o) => o.value === 'ManageSms')).toMatchObject({
			name: 'Manage SMS',
			description: expect.stringContaining('ManageSms'),
		});
		for (const o of scopes) expect(o.description, String(o.value)).toBeTruthy();
	});

	it('lists time zones sorted case-insensitively, each with its IANA name', () => {
		const zone = (shownFor('property', 'update', 'updateFields').options as INodeProperties[]).find(
			(o) => o.name === 'TimeZone',
		)!;
		const names = (zone.options as INodePropertyOptions[]).map((o) => o.name);
		expect(names).toEqual(
			[...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
		);
		expect(zone.options).toContainEqual({
			name: 'AUS Eastern Standard Time (Australia/Sydney)',
			value: 'AUS Eastern Standard Time',
		});
		expect(zone.options).toHaveLength(Object.keys(WINDOWS_TIME_ZONES).length);
	});

	it('shows, for Map From Input, the item fields it reads and that Options are defaults', () => {
		const notice = properties.find(
			(p) =>
				p.type === 'notice' &&
				p.displayOptions?.show?.mapping?.includes('autoMap') &&
				p.displayOptions?.show?.operation?.includes('sendBatch'),
		)!;
		for (const field of SEND_MESSAGE_FIELDS) expect(notice.displayName).toContain(field);
		expect(notice.displayName).toMatch(/Options .* defaults/);
	});

	it('says what an empty Permissions list does, and the node does that', () => {
		const permissions = (
			shownFor('onlineLogin', 'update', 'updateFields').options as INodeProperties[]
		).find((o) => o.name === 'Permissions')!;
		expect(permissions.description).toMatch(/no entries nothing is sent/);
	});

	it('shows the display names of resource and operation on the canvas', () => {
		const node = {
			id: 'n',
			name: 'CloudTel',
			type: 'cloudTel',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: { resource: 'message', operation: 'sendBatch' },
		};
		const type = new CloudTel();
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: {
				getByName: () => type,
				getByNameAndVersion: () => type,
				getKnownTypes: () => ({}),
			} as never,
		});
		const shown = (resource: string, operation: string) => {
			workflow.nodes.CloudTel.parameters = {
				...workflow.nodes.CloudTel.parameters,
				resource,
				operation,
			};
			return workflow.expression.getSimpleParameterValue(
				workflow.nodes.CloudTel,
				type.description.subtitle!,
				'manual',
				{},
			);
		};
		expect(shown('message', 'sendBatch')).toBe('Send Batch: Message');
		const resources = properties.find((p) => p.name === 'resource')!
			.options as INodePropertyOptions[];
		let pairs = 0;
		for (const resource of resources) {
			const operation = properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
			)!;
			for (const o of operation.options as INodePropertyOptions[]) {
				expect(shown(String(resource.value), String(o.value))).toBe(`${o.name}: ${resource.name}`);
				pairs++;
			}
		}
		expect(pairs).toBe(10);
		// The editor's Custom API Call: its value, which n8n 2.x leaves off the canvas, never "undefined".
		expect(shown('message', '__CUSTOM_API_CALL__')).toBe('__CUSTOM_API_CALL__: Message');
		expect(shown('message', '__CUSTOM_API_CALL__')).not.toContain('undefined');
	});

	// The panel cuts a collection option's label after about 25 characters ("Delivery Receipt Webhook...").
	it('gives every option in a collection a label that fits the panel (24 characters at most)', () => {
		const options = all(properties)
			.filter((p) => p.type === 'collection')
			.flatMap((p) => p.options as INodeProperties[]);
		expect(options.length).toBeGreaterThan(20);
		for (const o of options) expect(o.displayName.length, o.displayName).toBeLessThanOrEqual(24);
		expect(options.map((o) => o.displayName)).toContain('Delivery Receipt URI');
	});

	it("shows under Property SID, not only on hover, that an empty one uses the credential's default", () => {
		const fields = properties.filter((p) => p.name === 'propertySid');
		expect(fields.length).toBeGreaterThanOrEqual(4);
		for (const p of fields)
			expect(p.hint, JSON.stringify(p.displayOptions)).toMatch(/empty .*Default Property SID/);
	});

	it("keeps Online Login Create's Enabled off, as the provider does, and says under it what off means", () => {
		const enabled = shownFor('onlineLogin', 'create', 'enabled');
		expect(enabled.default).toBe(false);
		expect(enabled.hint).toMatch(/cannot sign in until it is enabled/);
	});

	it('offers Include Input Fields, on by default, wherever an item sends or creates', () => {
		for (const [resource, operation] of [
			['message', 'send'],
			['message', 'sendBatch'],
			['onlineLogin', 'create'],
			['sipTrunk', 'create'],
			['address', 'add'],
		]) {
			expect(shownFor(resource, operation, 'includeInputFields')).toMatchObject({
				type: 'boolean',
				default: true,
			});
		}
	});

	it('shows Reply Handling in Map From Input whatever the hidden From holds, and in Define Below only while From is blank', () => {
		const base = { resource: 'message', operation: 'sendBatch' };
		const shown = (parameters: Record<string, unknown>) => {
			const values = NodeHelpers.getNodeParameters(
				properties,
				{
					...base,
					...parameters,
					replyHandling: { WebhookUri: 'https://hooks.example.com/r' },
				} as never,
				false,
				false,
				null,
				null,
			);
			return (values as Record<string, unknown> | null)?.replyHandling;
		};
		expect(shown({ mapping: 'autoMap', from: 'MyBrand' })).toEqual({
			WebhookUri: 'https://hooks.example.com/r',
		});
		expect(shown({ mapping: 'autoMap', from: '' })).toEqual({
			WebhookUri: 'https://hooks.example.com/r',
		});
		expect(shown({ mapping: 'defineBelow', from: '' })).toEqual({
			WebhookUri: 'https://hooks.example.com/r',
		});
		expect(shown({ mapping: 'defineBelow', from: 'MyBrand' })).toBeUndefined();
	});
});

describe('CloudTel Trigger in the editor', () => {
	const { description } = new CloudTelTrigger();
	const texts = [
		...description.properties.filter((p) => p.type === 'notice').map((p) => p.displayName),
		String(
			(description.triggerPanel as { executionsHelp: { inactive: string } }).executionsHelp
				.inactive,
		),
	];

	it('shows ?secret=<your secret> literally: the editor renders these texts as HTML', () => {
		for (const text of texts) {
			expect(text).toContain('?secret=&lt;your secret&gt;');
			expect(text).not.toMatch(/<(?!\/?b>)/);
		}
	});

	it("names no test button, whose label differs between n8n's editors ('Listen for test event', 'Execute step', 'Test this trigger')", () => {
		for (const text of texts)
			expect(text).not.toMatch(/Listen for test event|Execute step|Test this trigger|Test step/i);
		expect(texts.join(' ')).toMatch(/Test URL/);
		expect(
			String((description.triggerPanel as { activationHint: string }).activationHint),
		).toContain("'Publish'");
	});

	it('shows the events by their names on the canvas ("Delivery Receipt", not "receipt")', () => {
		const node = {
			id: 't',
			name: 'CloudTel Trigger',
			type: 'cloudTelTrigger',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {} as INodeParameters,
		};
		const type = new CloudTelTrigger();
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: {
				getByName: () => type,
				getByNameAndVersion: () => type,
				getKnownTypes: () => ({}),
			} as never,
		});
		const shown = (events: string[]) => {
			workflow.nodes['CloudTel Trigger'].parameters = { events };
			return workflow.expression.getSimpleParameterValue(
				workflow.nodes['CloudTel Trigger'],
				type.description.subtitle!,
				'manual',
				{},
			);
		};
		expect(shown(['receipt'])).toBe('Delivery Receipt');
		expect(shown(['receipt', 'reply'])).toBe('Delivery Receipt, Reply');
		const names = (
			description.properties.find((p) => p.name === 'events')!.options as INodePropertyOptions[]
		).map((o) => o.name);
		expect(shown(['reply'])).toBe(names.find((n) => n === 'Reply'));
	});

	it('says what Ignore Repeats guarantees and points to a shared store across processes', () => {
		const options = description.properties.find((p) => p.name === 'options')!
			.options as INodeProperties[];
		const ignore = options.find((o) => o.name === 'ignoreRepeats')!;
		expect(ignore.description).toMatch(/within one n8n process/i);
		expect(ignore.description).toMatch(/not across queue-mode webhook processes/);
		expect(ignore.description).toMatch(
			/shared atomic store \(the README's Redis Increment template\)/,
		);
	});
});
