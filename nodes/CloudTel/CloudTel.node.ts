import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as address from './actions/address/Address.resource';
import * as message from './actions/message/Message.resource';
import * as onlineLogin from './actions/onlineLogin/OnlineLogin.resource';
import * as property from './actions/property/Property.resource';
import { router } from './actions/router';
import * as sipTrunk from './actions/sipTrunk/SipTrunk.resource';
import { listSearch } from './methods';

const RESOURCES = [address, message, onlineLogin, property, sipTrunk];

/**
 * The canvas subtitle, "Send Batch: Message": display names looked up from the options
 * the editor shows, not the internal values.
 */
function subtitle(resources: INodePropertyOptions[]): string {
	const operations: Record<string, string> = {};
	for (const r of RESOURCES) {
		const field = r.description.find((p) => p.name === 'operation');
		const resource = field?.displayOptions?.show?.resource?.[0];
		for (const o of (field?.options ?? []) as INodePropertyOptions[]) operations[`${String(resource)}.${String(o.value)}`] = o.name;
	}
	const names = Object.fromEntries(resources.map((o) => [o.value, o.name]));
	return `={{ (${JSON.stringify(operations)})[$parameter["resource"] + "." + $parameter["operation"]] + ": " + (${JSON.stringify(names)})[$parameter["resource"]] }}`;
}

const RESOURCE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Address', value: 'address' },
	{ name: 'Message', value: 'message' },
	{ name: 'Online Login', value: 'onlineLogin' },
	{ name: 'Property', value: 'property' },
	{ name: 'SIP Trunk', value: 'sipTrunk' },
];

export class CloudTel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CloudTel',
		name: 'cloudTel',
		icon: { light: 'file:cloudtel.svg', dark: 'file:cloudtel.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: subtitle(RESOURCE_OPTIONS),
		description: 'Send SMS and manage online logins, properties, SIP trunks and addresses with CloudTel',
		// n8n opens an http documentationUrl as it is; a codex URL gets "?utm_..." appended,
		// which after a "#heading" would land inside the fragment and miss the heading.
		documentationUrl: 'https://github.com/cloudtel/n8n-nodes-cloudtel#the-cloudtel-node',
		defaults: { name: 'CloudTel' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloudTelApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCE_OPTIONS,
				default: 'message',
			},
			...address.description,
			...message.description,
			...onlineLogin.description,
			...property.description,
			...sipTrunk.description,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
