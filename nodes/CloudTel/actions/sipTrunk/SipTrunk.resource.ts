import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';

export { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sipTrunk'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a SIP trunk for a property',
				action: 'Create SIP trunk',
			},
		],
		default: 'create',
	},
	...create.description,
];
