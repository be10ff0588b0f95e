import type { INodePropertyOptions } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { CloudTelCampaign } from '../../../nodes/CloudTelCampaign/CloudTelCampaign.node';
import { CloudTelTrigger } from '../../../nodes/CloudTelTrigger/CloudTelTrigger.node';
import { CAMPAIGN_EVENT_TYPES } from '../../../api';
import { WORKER_EVENT_CHOICES } from '../../../nodes/CloudTelTrigger/workerEvent';

function subtitleOf(type: { description: { subtitle?: string } }, name: string, parameters: Record<string, unknown>) {
	const node = { id: 'n', name, type: name, typeVersion: 1, position: [0, 0] as [number, number], parameters };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) } as never });
	return workflow.expression.getSimpleParameterValue(workflow.nodes[name], type.description.subtitle!, 'manual', {});
}

describe('CloudTel Campaign in the editor', () => {
	const type = new CloudTelCampaign();
	const operations = type.description.properties.find((p) => p.name === 'operation')!.options as INodePropertyOptions[];

	it('has the seven operations, each with an action without articles', () => {
		expect(operations.map((o) => o.value).sort()).toEqual(['cancel', 'getReport', 'getStatus', 'pause', 'preview', 'resume', 'start']);
		for (const o of operations) expect(o.action, String(o.value)).not.toMatch(/\b(a|an|the)\b/i);
	});

	it("shows each operation's display name on the canvas", () => {
		for (const o of operations) expect(subtitleOf(type, 'CloudTel Campaign', { operation: o.value })).toBe(o.name);
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
		for (const t of CAMPAIGN_EVENT_TYPES) expect(choices.map((c) => c.value), t).toContain(WORKER_EVENT_CHOICES[t].value);
		expect(events.default).toEqual(['receipt', 'reply']);
	});

	it('names the chosen events on the canvas', () => {
		for (const c of choices) expect(subtitleOf(type, 'CloudTel Trigger', { events: [c.value] })).toBe(c.name);
	});
});
