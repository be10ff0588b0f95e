import type { INodeProperties } from 'n8n-workflow';
import * as add from './add.operation';
import * as deleteAddress from './deleteAddress.operation';

export { add, deleteAddress };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['address'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add an address to the account',
				action: 'Add address',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete an address',
				action: 'Delete address',
			},
		],
		default: 'add',
	},
	...add.description,
	...deleteAddress.description,
];
