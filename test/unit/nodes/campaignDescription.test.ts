import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { CloudTelCampaign } from '../../../nodes/CloudTelCampaign/CloudTelCampaign.node';
import { CloudTelTrigger } from '../../../nodes/CloudTelTrigger/CloudTelTrigger.node';
import { CAMPAIGN_EVENT_TYPES } from '../../../api';
import { WORKER_EVENT_CHOICES } from '../../../nodes/CloudTelTrigger/workerEvent';

function subtitleOf(
	type: { description: { subtitle?: string } },
	name: string,
	parameters: Record<string, unknown>,
) {
	const node = {
		id: 'n',
		name,
		type: name,
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: parameters as INodeParameters,
	};
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
	return workflow.expression.getSimpleParameterValue(
		workflow.nodes[name],
		type.description.subtitle!,
		'manual',
		{},
	);
}

/**
 * What n8n's editor does when a top-level parameter is changed in the panel, as read in
 * n8n-editor-ui 2.x's NodeDetailsView (valueChanged): the new value is set, then
 * removeMismatchedOptionValues drops the value of every property that has options and a
 * displayOptions condition on the changed parameter, when the value does not fit those
 * options (for a collection: when any parameter's name is not one of its options), then
 * getNodeParameters (with defaults) keeps what is displayed.
 */
function switchInEditor(
	properties: INodeProperties[],
	parameters: INodeParameters,
	name: string,
	value: string,
): INodeParameters {
	const node = {
		id: 'n',
		name: 'c',
		type: 'c',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	} as INode;
	const values: INodeParameters = {
		...NodeHelpers.getNodeParameters(properties, parameters, false, false, node, null)!,
		[name]: value,
	};
	for (const prop of properties) {
		if (
			!Object.prototype.hasOwnProperty.call(values, prop.name) ||
			!prop.displayOptions ||
			!prop.options
		)
			continue;
		if (
			prop.displayOptions.show?.[name] === undefined &&
			prop.displayOptions.hide?.[name] === undefined
		)
			continue;
		const options = prop.options as Array<{ name: string; value?: unknown }>;
		const fits =
			prop.type === 'options' || prop.type === 'multiOptions'
				? options.some((o) => o.value === values[prop.name])
				: Object.keys(values).every((key) => options.some((o) => o.name === key));
		if (!fits && NodeHelpers.displayParameter(values, prop, node, null)) delete values[prop.name];
	}
	return NodeHelpers.getNodeParameters(properties, values, true, false, node, null)!;
}

describe('CloudTel Campaign in the editor', () => {
	const type = new CloudTelCampaign();
	const operations = type.description.properties.find((p) => p.name === 'operation')!
		.options as INodePropertyOptions[];

	it('has the eight operations, each with an action without articles', () => {
		expect(operations.map((o) => o.value).sort()).toEqual([
			'cancel',
			'deleteCampaign',
			'getReport',
			'getStatus',
			'pause',
			'preview',
			'resume',
			'start',
		]);
		for (const o of operations) expect(o.action, String(o.value)).not.toMatch(/\b(a|an|the)\b/i);
	});

	it("shows each operation's display name on the canvas", () => {
		for (const o of operations)
			expect(subtitleOf(type, 'CloudTel Campaign', { operation: o.value })).toBe(o.name);
	});

	it('keeps the fields Start and Preview share, Options and Columns included, when the operation is switched in the editor', () => {
		const filled = {
			operation: 'preview',
			campaignName: 'spring',
			propertySid: 'p-1',
			text: 'Hi {{first_name}}',
			mapping: 'defineBelow',
			columns: { column: [{ name: 'phone', value: '={{ $json.mobile }}' }] },
			options: { rate: 20, events: 'https://n8n.example.com/webhook/x/cloudtel?secret=s' },
			pricePerSegment: 0.05,
		};
		const started = switchInEditor(type.description.properties, filled, 'operation', 'start');
		expect(started).toMatchObject({
			operation: 'start',
			campaignName: 'spring',
			propertySid: 'p-1',
			text: 'Hi {{first_name}}',
			mapping: 'defineBelow',
			columns: filled.columns,
			options: filled.options,
		});
		expect(
			switchInEditor(type.description.properties, started, 'operation', 'preview'),
		).toMatchObject({ options: filled.options, columns: filled.columns });
		expect(
			switchInEditor(type.description.properties, started, 'operation', 'getStatus'),
		).toMatchObject({ campaignName: 'spring' });
	});

	it('is usable as an AI tool', () => {
		expect(type.description.usableAsTool).toBe(true);
	});
});

describe('CloudTel Trigger: the worker event choices', () => {
	const type = new CloudTelTrigger();
	const events = type.description.properties.find((p) => p.name === 'events')!;
	const choices = events.options as INodePropertyOptions[];

	it('offers one choice per worker event type, keeping Delivery Receipt and Reply as the default', () => {
		for (const t of CAMPAIGN_EVENT_TYPES)
			expect(
				choices.map((c) => c.value),
				t,
			).toContain(WORKER_EVENT_CHOICES[t].value);
		expect(events.default).toEqual(['receipt', 'reply']);
	});

	it('names the chosen events on the canvas', () => {
		for (const c of choices)
			expect(subtitleOf(type, 'CloudTel Trigger', { events: [c.value] })).toBe(c.name);
	});
});
