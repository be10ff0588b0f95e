import type { INodeProperties } from 'n8n-workflow';

/** How the input items become recipients (Start and Preview). */
export const recipientFields: INodeProperties[] = [
	{
		displayName: 'Recipient Fields',
		name: 'mapping',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Map From Input',
				value: 'autoMap',
				description:
					"Each input item is one recipient: its fields are the recipient's columns (flat values: text, numbers, true/false). Fastest for large lists.",
			},
			{
				name: 'Define Below',
				value: 'defineBelow',
				description: 'Name each column and map its value, usually with an expression over the item',
			},
		],
		default: 'autoMap',
	},
	{
		displayName:
			'Each input item is one recipient, its fields the columns the Text uses ({{first_name}}) and the number (To Column, or the first field named To, Phone or Mobile). The node hands them to the worker in pages of 10,000 and outputs one item for the whole campaign.',
		name: 'mapFromInputNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { mapping: ['autoMap'] } },
	},
	{
		displayName: 'Columns',
		name: 'columns',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add column',
		default: {},
		displayOptions: { show: { mapping: ['defineBelow'] } },
		options: [
			{
				displayName: 'Column',
				name: 'column',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. phone',
						description: 'The column as the Text names it ({{name}}) or as To Column names it',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. {{ $json.phone }}',
						description: "The recipient's value, usually an expression over the item",
					},
				],
			},
		],
	},
];
