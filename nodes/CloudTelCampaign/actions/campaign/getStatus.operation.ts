import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { workerApiPaths, type CampaignStatusAnswer } from '../../../../api';
import { workerRequest } from '../../transport';
import { campaignJson } from '../common/campaignItem';
import { campaignNameField } from '../common/campaignName';
import { perCampaign } from '../common/perCampaign';

export const description = updateDisplayOptions({ show: { operation: ['getStatus'] } }, [campaignNameField] as INodeProperties[]);

/** The campaign's state and counts as the worker has them now. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await perCampaign(this, async (name, i) => {
		const answer = (await workerRequest.call(this, { method: 'GET', path: workerApiPaths.campaign(name) }, i)) as CampaignStatusAnswer;
		return campaignJson(answer.campaign);
	});
}
