import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { workerApiPaths, type CampaignDeleted } from '../../../../api';
import { workerRequest } from '../../transport';
import { perCampaign } from '../common/perCampaign';

/** Deletes a draft or an ended campaign on the worker; one still sending is refused (cancel it first). */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await perCampaign(this, async (name, i) => {
		const answer = (await workerRequest.call(
			this,
			{ method: 'DELETE', path: workerApiPaths.campaign(name) },
			i,
		)) as CampaignDeleted;
		return { campaign: name, deleted: true, state: answer.deleted.state } as IDataObject;
	});
}
