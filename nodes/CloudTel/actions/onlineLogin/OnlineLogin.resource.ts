import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['onlineLogin'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a portal login for a property',
				action: 'Create online login',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Retrieve an online login',
				action: 'Get online login',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the online logins of the account',
				action: 'Get many online logins',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change some fields of an online login',
				action: 'Update online login',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...getMany.description,
	...update.description,
];
