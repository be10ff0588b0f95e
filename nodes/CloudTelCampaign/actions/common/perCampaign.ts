import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { runPerItem } from '../../../CloudTel/actions/common/runPerItem';
import { campaignFailure } from './campaignFailure';
import { readCampaignName } from './campaignName';

/**
 * Get Status, Pause, Resume, Cancel and Get Report act on the campaign each input item
 * names (so an AI agent or a list of names works too), one output item per input item.
 */
export async function perCampaign(ctx: IExecuteFunctions, act: (name: string, itemIndex: number) => Promise<IDataObject>): Promise<INodeExecutionData[]> {
	return await runPerItem(ctx, (i) => readCampaignName(ctx, i), act, {
		success: (json, i) => ({ json, pairedItem: { item: i } }),
		failure: (error, i) => campaignFailure(ctx, error, i),
	});
}
