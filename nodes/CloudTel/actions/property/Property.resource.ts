import type { INodeProperties } from 'n8n-workflow';
import * as update from './update.operation';

export { update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['property'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description: 'Change some settings of a property',
				action: 'Update property',
			},
		],
		default: 'update',
	},
	...update.description,
];
