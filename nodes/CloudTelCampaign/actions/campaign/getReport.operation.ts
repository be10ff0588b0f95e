import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { workerApiPaths } from '../../../../api';
import { workerRequest } from '../../transport';
import { perCampaign } from '../common/perCampaign';

/** The campaign's report, as `cloudtel campaign report --json` gives it. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await perCampaign(this, async (name, i) => {
		const report = (await workerRequest.call(this, { method: 'GET', path: workerApiPaths.report(name) }, i)) as IDataObject;
		return { campaign: name, ...report };
	}, { readOnly: true });
}
