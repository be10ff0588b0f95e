import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as address from './actions/address/Address.resource';
import * as message from './actions/message/Message.resource';
import * as onlineLogin from './actions/onlineLogin/OnlineLogin.resource';
import * as property from './actions/property/Property.resource';
import { router } from './actions/router';
import * as sipTrunk from './actions/sipTrunk/SipTrunk.resource';
import { cloudTelApiTest, listSearch } from './methods';

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
		// 1.1: Simplify, on by default where an answer has more than 10 fields; version 1
		// nodes (workflows saved before it) keep their full output.
		version: [1, 1.1],
		defaultVersion: 1.1,
		// "Send Batch: Message": display names, not internal values. A literal, as n8n's scan
		// requires; a test holds it to the option names for every resource and operation. An
		// operation it does not know (the editor's Custom API Call, "__CUSTOM_API_CALL__") shows
		// as its value, which the editor knows to leave out, rather than as "undefined".
		subtitle:
			'={{ (({ add: "Add", create: "Create", delete: "Delete", get: "Get", getMany: "Get Many", send: "Send", sendBatch: "Send Batch", update: "Update" })[$parameter["operation"]] || $parameter["operation"]) + ": " + (({ address: "Address", message: "Message", onlineLogin: "Online Login", property: "Property", sipTrunk: "SIP Trunk" })[$parameter["resource"]] || $parameter["resource"]) }}',
		description:
			'Send SMS and manage online logins, properties, SIP trunks and addresses with CloudTel',
		// n8n opens an http documentationUrl as it is; a codex URL gets "?utm_..." appended,
		// which after a "#heading" would land inside the fragment and miss the heading.
		documentationUrl: 'https://github.com/cloudtel/n8n-nodes-cloudtel#the-cloudtel-node',
		defaults: { name: 'CloudTel' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloudTelApi', required: true, testedBy: 'cloudTelApiTest' }],
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

	methods = { listSearch, credentialTest: { cloudTelApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
