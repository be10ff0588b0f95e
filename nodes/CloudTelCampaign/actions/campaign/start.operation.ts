import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { workerApiPaths, type CampaignStatusAnswer, type StartRequest } from '../../../../api';
import { workerRequest } from '../../transport';
import { campaignJson } from '../common/campaignItem';
import { readCampaignName } from '../common/campaignName';
import { handOver } from '../common/handOver';
import { readRecipients } from '../common/readRecipients';
import { readSettings } from '../common/settingsFields';

/**
 * The input items are the campaign's recipients: handed to the worker (settings, pages of
 * 10,000, then start), which sends them paced, skips its suppression list and carries on
 * whatever happens to n8n afterwards. One output item for the whole campaign.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const name = readCampaignName(this, 0);
	const settings = readSettings(this);
	const { recipients, failed } = readRecipients(this);
	if (recipients.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'No recipients: Start needs at least one input item',
			{
				description:
					failed.length > 0
						? `All ${failed.length} input items were left out; see their errors.`
						: 'Connect the node that lists the contacts (a sheet, a CRM, a Code node) to this node.',
			},
		);
	}
	const handed = await handOver(this, name, settings, recipients);
	let status = handed.status;
	if (!handed.alreadyStarted) {
		const body: StartRequest = { pages: handed.pages };
		status = (
			(await workerRequest.call(
				this,
				{ method: 'POST', path: workerApiPaths.start(name), body },
				0,
			)) as CampaignStatusAnswer
		).campaign;
	}
	const json = campaignJson(status, {
		alreadyStarted: handed.alreadyStarted,
		handedOver: handed.alreadyStarted ? 0 : recipients.length,
		leftOut: failed.length,
		pages: handed.pages,
	});
	if (handed.alreadyStarted) {
		this.addExecutionHints({
			message: `Campaign "${name}" had already been started, so nothing was handed over again and nobody is sent twice. To send another campaign, give it a new Campaign Name.`,
			location: 'outputPane',
		});
	}
	// One item for the campaign, paired to the first recipient: pairing it to each of
	// 100,000 inputs would only weigh down the execution's saved data.
	return [{ json, pairedItem: { item: 0 } }, ...failed];
}
