import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { CAMPAIGN_NAME_RULE, isCampaignName } from '../../../../api';

export const campaignNameField: INodeProperties = {
	displayName: 'Campaign Name',
	name: 'campaignName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. spring-sale-2026',
	description: `The campaign's name on the worker (${CAMPAIGN_NAME_RULE.replace(/^must be /, '')}). It identifies the campaign: a Start run again with the same name, settings and items hands nothing over twice and sends nobody twice.`,
};

/** The campaign name of item `itemIndex`, checked by the worker's own rule so a bad one fails here, naming the field. */
export function readCampaignName(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('campaignName', itemIndex, '');
	const name = typeof raw === 'string' ? raw.trim() : String(raw ?? '');
	if (!isCampaignName(name)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid Campaign Name: ${name === '' ? 'it is empty' : `"${name}"`}`,
			{
				itemIndex,
				description: `Campaign Name ${CAMPAIGN_NAME_RULE}.`,
			},
		);
	}
	return name;
}
