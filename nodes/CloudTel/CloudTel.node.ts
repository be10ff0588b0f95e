import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as address from './actions/address/Address.resource';
import * as message from './actions/message/Message.resource';
import * as onlineLogin from './actions/onlineLogin/OnlineLogin.resource';
import * as property from './actions/property/Property.resource';
import { router } from './actions/router';
import * as sipTrunk from './actions/sipTrunk/SipTrunk.resource';
import { listSearch } from './methods';

export class CloudTel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CloudTel',
		name: 'cloudTel',
		icon: { light: 'file:cloudtel.svg', dark: 'file:cloudtel.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Send SMS and manage online logins, properties, SIP trunks and addresses with CloudTel',
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
				options: [
					{ name: 'Address', value: 'address' },
					{ name: 'Message', value: 'message' },
					{ name: 'Online Login', value: 'onlineLogin' },
					{ name: 'Property', value: 'property' },
					{ name: 'SIP Trunk', value: 'sipTrunk' },
				],
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
