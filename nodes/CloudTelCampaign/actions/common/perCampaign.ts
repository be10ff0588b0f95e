import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { asNodeError } from '../../../CloudTel/actions/common/nodeError';
import { runPerItem } from '../../../CloudTel/actions/common/runPerItem';
import { campaignFailure } from './campaignFailure';
import { readCampaignName } from './campaignName';

/**
 * Get Status, Pause, Resume, Cancel, Delete and Get Report act on the campaign each input
 * item names (so an AI agent or a list of names works too), one output item per input item;
 * Get Status and Get Report with a fixed name answer once.
 */
export async function perCampaign(
	ctx: IExecuteFunctions,
	act: (name: string, itemIndex: number) => Promise<IDataObject>,
	options: { readOnly?: boolean } = {},
): Promise<INodeExecutionData[]> {
	// A question with a fixed name (not an expression) has one answer, however many items
	// come in: asked once, not once per item of the node before (200 identical calls).
	const raw = ctx.getNode().parameters.campaignName;
	const fixed = typeof raw !== 'string' || !raw.startsWith('=');
	const input = ctx.getInputData();
	if (options.readOnly && fixed && input.length > 1) {
		try {
			const json = await act(readCampaignName(ctx, 0), 0);
			ctx.addExecutionHints({
				message: `Campaign Name is fixed, so the campaign was asked once for the ${input.length} input items. Map it from the items (an expression) to ask about a campaign per item.`,
				location: 'outputPane',
			});
			return [{ json, pairedItem: { item: 0 } }];
		} catch (error) {
			const nodeError = asNodeError(ctx.getNode(), error, 0);
			if (!ctx.continueOnFail()) throw nodeError;
			return [campaignFailure(ctx, nodeError, 0)];
		}
	}
	return await runPerItem(ctx, (i) => readCampaignName(ctx, i), act, {
		success: (json, i) => ({ json, pairedItem: { item: i } }),
		failure: (error, i) => campaignFailure(ctx, error, i),
	});
}
