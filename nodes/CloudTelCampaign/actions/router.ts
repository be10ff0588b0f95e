import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import * as campaign from './campaign/Campaign.resource';
import { asNodeError } from '../../CloudTel/actions/common/nodeError';
import { campaignFailure } from './common/campaignFailure';

type Operation = { execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> };

const operations: Record<string, Operation> = {
	start: campaign.start,
	preview: campaign.preview,
	getStatus: campaign.getStatus,
	pause: campaign.pause,
	resume: campaign.resume,
	cancel: campaign.cancel,
	deleteCampaign: campaign.deleteCampaign,
	getReport: campaign.getReport,
};

/**
 * Start and Preview treat all input items as one campaign: when they fail as a whole (bad
 * settings, a refusal of the worker), Continue On Fail gives one error item for the campaign.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	const selected = operations[operation];
	if (!selected)
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported`);
	try {
		return [await selected.execute.call(this)];
	} catch (error) {
		const nodeError = asNodeError(this.getNode(), error, 0);
		if (!this.continueOnFail()) throw nodeError;
		return [[campaignFailure(this, nodeError, Number(nodeError.context.itemIndex ?? 0))]];
	}
}
