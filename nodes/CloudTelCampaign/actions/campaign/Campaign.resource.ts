import type { INodeProperties } from 'n8n-workflow';
import { campaignNameField } from '../common/campaignName';
import { recipientFields } from '../common/recipientFields';
import { settingsFields } from '../common/settingsFields';
import * as deleteCampaign from './deleteCampaign.operation';
import * as cancel from './cancel.operation';
import * as getReport from './getReport.operation';
import * as getStatus from './getStatus.operation';
import * as pause from './pause.operation';
import * as preview from './preview.operation';
import * as resume from './resume.operation';
import * as start from './start.operation';

export { cancel, deleteCampaign, getReport, getStatus, pause, preview, resume, start };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Stop a campaign for good',
				action: 'Cancel campaign',
			},
			{
				name: 'Delete',
				value: 'deleteCampaign',
				description: 'Delete a draft, or a campaign that has ended, so its name is free again',
				action: 'Delete campaign',
			},
			{
				name: 'Get Report',
				value: 'getReport',
				description: "Get a campaign's report: outcomes, delivery, replies, errors",
				action: 'Get campaign report',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description: "Get a campaign's state and counts",
				action: 'Get campaign status',
			},
			{
				name: 'Pause',
				value: 'pause',
				description: "Hold a campaign's sending",
				action: 'Pause campaign',
			},
			{
				name: 'Preview',
				value: 'preview',
				description:
					'Hand the input items over as a draft and get the dry run: valid, invalid, suppressed, segments, cost',
				action: 'Preview campaign',
			},
			{
				name: 'Resume',
				value: 'resume',
				description: 'Take a paused campaign up again',
				action: 'Resume campaign',
			},
			{
				name: 'Start',
				value: 'start',
				description:
					'Hand the input items to the worker as recipients and start the campaign, sent paced by the worker',
				action: 'Start campaign',
			},
		],
		default: 'start',
	},
	campaignNameField,
	// Start and Preview share these, once, so switching between them keeps what was filled
	// in. Shown by '/operation', not 'operation': the editor empties a collection whose
	// displayOptions name the parameter just changed (removeMismatchedOptionValues in n8n
	// 2.x's NodeDetailsView), which emptied Options on every switch from Preview to Start.
	...[...recipientFields, ...settingsFields].map((p) => ({
		...p,
		displayOptions: {
			...p.displayOptions,
			show: { ...p.displayOptions?.show, '/operation': ['start', 'preview'] },
		},
	})),
	...preview.description,
	...getReport.description,
];
