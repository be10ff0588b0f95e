import type { INodeProperties } from 'n8n-workflow';
import * as send from './send.operation';
import * as sendBatch from './sendBatch.operation';

export { send, sendBatch };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				description: 'Send or schedule one SMS per input item',
				action: 'Send SMS',
			},
			{
				name: 'Send Batch',
				value: 'sendBatch',
				description: 'Send the input items as SMS in batches of up to 1000 per request',
				action: 'Send SMS batch',
			},
		],
		default: 'send',
	},
	...send.description,
	...sendBatch.description,
];
