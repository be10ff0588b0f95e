import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import {
	MAX_PAGE_RECIPIENTS,
	workerApiPaths,
	type CampaignSettings,
	type CampaignStatus,
	type CampaignStatusAnswer,
	type Recipient,
} from '../../../../api';
import { workerRequest } from '../../transport';
import { asNodeError } from '../../../CloudTel/actions/common/nodeError';

export interface HandedOver {
	status: CampaignStatus;
	/** Pages the recipients filled (10,000 each). */
	pages: number;
	/** The campaign had been started before (by an earlier run): nothing was handed over. */
	alreadyStarted: boolean;
}

const isStartedRefusal = (error: unknown) =>
	error instanceof NodeApiError && error.context.code === 'started';

/**
 * Gives the worker the campaign's settings, then its recipients page by page, each PUT
 * under its number: a run made again (after a failure, a stop of n8n, or by mistake) PUTs
 * the same pages, which the worker keeps as they are, so nothing is added twice. A campaign
 * that was already started keeps what it had: its recipients are not sent again.
 */
export async function handOver(
	ctx: IExecuteFunctions,
	name: string,
	settings: CampaignSettings,
	recipients: Recipient[],
): Promise<HandedOver> {
	const pages = Math.ceil(recipients.length / MAX_PAGE_RECIPIENTS);
	const created = (await workerRequest.call(
		ctx,
		{ method: 'PUT', path: workerApiPaths.campaign(name), body: settings },
		0,
	)) as CampaignStatusAnswer;
	if (created.campaign.state !== 'draft')
		return { status: created.campaign, pages, alreadyStarted: true };
	for (let page = 1; page <= pages; page++) {
		const slice = recipients.slice((page - 1) * MAX_PAGE_RECIPIENTS, page * MAX_PAGE_RECIPIENTS);
		try {
			await workerRequest.call(
				ctx,
				{ method: 'PUT', path: workerApiPaths.page(name, page), body: { recipients: slice } },
				0,
			);
		} catch (error) {
			// Started meanwhile (another run of this workflow got there first).
			if (!isStartedRefusal(error)) {
				// The worker names a recipient within its page (recipients[12]): say which page that is.
				const nodeError = asNodeError(ctx.getNode(), error, 0);
				const first = (page - 1) * MAX_PAGE_RECIPIENTS;
				nodeError.description = [
					`Page ${page} of ${pages} (recipients ${first + 1} to ${first + slice.length}).`,
					nodeError.description,
				]
					.filter(Boolean)
					.join('\n');
				throw nodeError;
			}
			const now = (await workerRequest.call(
				ctx,
				{ method: 'GET', path: workerApiPaths.campaign(name) },
				0,
			)) as CampaignStatusAnswer;
			return { status: now.campaign, pages, alreadyStarted: true };
		}
	}
	return { status: created.campaign, pages, alreadyStarted: false };
}
