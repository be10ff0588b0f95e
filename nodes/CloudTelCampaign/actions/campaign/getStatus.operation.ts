import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { workerApiPaths, type CampaignStatusAnswer } from '../../../../api';
import { workerRequest } from '../../transport';
import { campaignJson } from '../common/campaignItem';
import { perCampaign } from '../common/perCampaign';

/** The campaign's state and counts as the worker has them now. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await perCampaign(
		this,
		async (name, i) => {
			const answer = (await workerRequest.call(
				this,
				{ method: 'GET', path: workerApiPaths.campaign(name) },
				i,
			)) as CampaignStatusAnswer;
			return campaignJson(answer.campaign);
		},
		{ readOnly: true },
	);
}
