import type { INodeProperties } from 'n8n-workflow';
import * as cancel from './cancel.operation';
import * as getReport from './getReport.operation';
import * as getStatus from './getStatus.operation';
import * as pause from './pause.operation';
import * as preview from './preview.operation';
import * as resume from './resume.operation';
import * as start from './start.operation';

export { cancel, getReport, getStatus, pause, preview, resume, start };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Cancel', value: 'cancel', description: 'Stop a campaign for good', action: 'Cancel campaign' },
			{ name: 'Get Report', value: 'getReport', description: "Get a campaign's report: outcomes, delivery, replies, errors", action: 'Get campaign report' },
			{ name: 'Get Status', value: 'getStatus', description: "Get a campaign's state and counts", action: 'Get campaign status' },
			{ name: 'Pause', value: 'pause', description: "Hold a campaign's sending", action: 'Pause campaign' },
			{
				name: 'Preview',
				value: 'preview',
				description: 'Hand the input items over as a draft and get the dry run: valid, invalid, suppressed, segments, cost',
				action: 'Preview campaign',
			},
			{ name: 'Resume', value: 'resume', description: 'Take a paused campaign up again', action: 'Resume campaign' },
			{
				name: 'Start',
				value: 'start',
				description: 'Hand the input items to the worker as recipients and start the campaign, sent paced by the worker',
				action: 'Start campaign',
			},
		],
		default: 'start',
	},
	...start.description,
	...preview.description,
	...getStatus.description,
	...pause.description,
	...resume.description,
	...cancel.description,
	...getReport.description,
];
