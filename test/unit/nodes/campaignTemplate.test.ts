// The shipped campaign template names only parameters the nodes have, so an import into n8n
// shows each value where the user expects it (n8n drops a parameter it does not know).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { CloudTelCampaign } from '../../../nodes/CloudTelCampaign/CloudTelCampaign.node';
import { CloudTelTrigger } from '../../../nodes/CloudTelTrigger/CloudTelTrigger.node';

const template = JSON.parse(
	readFileSync(join(__dirname, '..', '..', '..', 'examples', 'n8n-campaign.workflow.json'), 'utf8'),
);
const byName = (name: string) => template.nodes.find((n: { name: string }) => n.name === name);

function shown(
	properties: INodeProperties[],
	parameters: Record<string, unknown>,
): INodeProperties[] {
	// A key starting with "/" names a parameter at the node's top level, as n8n reads it.
	return properties.filter((p) =>
		Object.entries(p.displayOptions?.show ?? {}).every(([key, values]) =>
			(values as unknown[]).includes(parameters[key.replace(/^\//, '')]),
		),
	);
}

describe('examples/n8n-campaign.workflow.json', () => {
	it('starts a campaign with parameters the CloudTel Campaign node has, the events going to its own trigger', () => {
		const node = byName('CloudTel Campaign');
		expect(node.type).toBe('n8n-nodes-cloudtel.cloudTelCampaign');
		const properties = shown(new CloudTelCampaign().description.properties, node.parameters);
		for (const key of Object.keys(node.parameters))
			expect(
				properties.map((p) => p.name),
				key,
			).toContain(key);
		const options = (
			properties.find((p) => p.name === 'options')!.options as INodeProperties[]
		).map((o) => o.name);
		for (const key of Object.keys(node.parameters.options)) expect(options, key).toContain(key);
		const trigger = byName('Campaign finished');
		expect(node.parameters.options.events).toBe(
			`https://n8n.example.com/webhook/${trigger.webhookId}/cloudtel?secret=${trigger.parameters.secret}`,
		);
		expect(template.connections.Contacts.main[0][0].node).toBe('CloudTel Campaign');
	});

	it('listens for Campaign Finished with an event choice the CloudTel Trigger has', () => {
		const trigger = byName('Campaign finished');
		const events = (
			new CloudTelTrigger().description.properties.find((p) => p.name === 'events')!
				.options as INodePropertyOptions[]
		).map((o) => o.value);
		expect(trigger.parameters.events).toEqual(['campaignFinished']);
		for (const e of trigger.parameters.events) expect(events).toContain(e);
		expect(template.connections['Campaign finished'].main[0][0].node).toBe('Results');
	});
});
