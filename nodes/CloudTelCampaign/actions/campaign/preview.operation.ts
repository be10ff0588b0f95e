import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { workerApiPaths, type CampaignPreview } from '../../../../api';
import { workerRequest } from '../../transport';
import { campaignNameField, readCampaignName } from '../common/campaignName';
import { handOver } from '../common/handOver';
import { readRecipients } from '../common/readRecipients';
import { recipientFields } from '../common/recipientFields';
import { readSettings, settingsFields } from '../common/settingsFields';

const properties: INodeProperties[] = [
	campaignNameField,
	...recipientFields,
	...settingsFields,
	{
		displayName: 'Price Per Segment',
		name: 'pricePerSegment',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 4 },
		default: 0,
		description: 'The price of one segment, to get the cost; 0 leaves the cost out',
	},
];

export const description = updateDisplayOptions({ show: { operation: ['preview'] } }, properties);

/**
 * The dry run: hands the items over as Start does but does not start, then returns what
 * the worker would send (valid, invalid, duplicates, suppressed, segments, cost, the first
 * problems by recipient). A Start with the same name, settings and items then starts that
 * draft without handing anything over twice.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const name = readCampaignName(this, 0);
	const settings = readSettings(this);
	const { recipients, failed } = readRecipients(this);
	if (recipients.length === 0) throw new NodeOperationError(this.getNode(), 'No recipients: Preview needs at least one input item');
	const handed = await handOver(this, name, settings, recipients);
	const price = Number(this.getNodeParameter('pricePerSegment', 0, 0));
	const query = price > 0 ? { pricePerSegment: price } : undefined;
	const preview = (await workerRequest.call(this, { method: 'GET', path: workerApiPaths.preview(name), query }, 0)) as CampaignPreview;
	const json = { campaign: name, state: handed.status.state, alreadyStarted: handed.alreadyStarted, leftOut: failed.length, ...preview };
	return [{ json: json as unknown as INodeExecutionData['json'], pairedItem: { item: 0 } }, ...failed];
}
