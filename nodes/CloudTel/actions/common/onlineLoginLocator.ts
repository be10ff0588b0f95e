import type { INodeProperties } from 'n8n-workflow';

export const onlineLoginLocator: INodeProperties = {
	displayName: 'Online Login',
	name: 'onlineLoginSid',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The online login to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an online login...',
			typeOptions: { searchListMethod: 'searchOnlineLogins', searchable: true },
		},
		{
			displayName: 'By SID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
		},
	],
};
