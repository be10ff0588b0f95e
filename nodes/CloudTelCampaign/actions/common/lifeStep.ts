import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { workerApiPaths, type CampaignStatusAnswer } from '../../../../api';
import { workerRequest } from '../../transport';
import { campaignJson } from './campaignItem';
import { perCampaign } from './perCampaign';

/** Pause, Resume and Cancel: one POST per named campaign, answered with its status. */
export async function lifeStep(
	ctx: IExecuteFunctions,
	step: 'pause' | 'resume' | 'cancel',
): Promise<INodeExecutionData[]> {
	return await perCampaign(ctx, async (name, i) => {
		const answer = (await workerRequest.call(
			ctx,
			{ method: 'POST', path: workerApiPaths[step](name), body: {} },
			i,
		)) as CampaignStatusAnswer;
		return campaignJson(answer.campaign);
	});
}
