import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import {
	settingDifferences,
	workerApiPaths,
	type CampaignPreview,
	type CampaignSettings,
	type CampaignStatus,
	type CampaignStatusAnswer,
} from '../../../../api';
import { workerRequest } from '../../transport';
import { n8nWording } from '../../transport/n8nWording';
import { asNodeError } from '../../../CloudTel/actions/common/nodeError';
import { readCampaignName } from '../common/campaignName';
import { handOver } from '../common/handOver';
import { readRecipients } from '../common/readRecipients';
import { readSettings } from '../common/settingsFields';

const properties: INodeProperties[] = [
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

/** The campaign the name stands for now, if any: what a Start with it would find. */
async function existing(ctx: IExecuteFunctions, name: string): Promise<CampaignStatus | undefined> {
	try {
		return (
			(await workerRequest.call(
				ctx,
				{ method: 'GET', path: workerApiPaths.campaign(name) },
				0,
			)) as CampaignStatusAnswer
		).campaign;
	} catch (error) {
		if (error instanceof NodeApiError && error.context.code === 'not_found') return undefined;
		throw asNodeError(ctx.getNode(), error, 0);
	}
}

/** What a Start with this name, these settings and items would do, in a sentence. */
function startWould(
	name: string,
	settings: CampaignSettings,
	before: CampaignStatus | undefined,
): string | undefined {
	if (!before) return undefined;
	if (before.state !== 'draft')
		return `Campaign "${name}" is already ${before.state}: a Start with this name hands nothing over and sends nobody again. Give a new campaign a new name.`;
	const differences = settingDifferences(before.settings, settings).map((d) => d.setting);
	if (differences.length > 0)
		return `A draft named "${name}" exists with other settings (${differences.join(', ')}): a Start with this name would be refused. Delete it (operation Delete) or choose another name.`;
	return undefined;
}

/**
 * The dry run, which stores nothing: the items go over as a draft under a name of its own,
 * the worker's preview of it is read, and the draft is deleted again, whatever happened.
 * So a Preview can be repeated after any edit, and the next Start with the campaign's name
 * starts afresh. The output: valid, invalid, duplicates, suppressed, segments, cost, the
 * first problems by recipient, and the first three messages as they would go out.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const name = readCampaignName(this, 0);
	const settings = readSettings(this);
	const { recipients, failed } = readRecipients(this);
	if (recipients.length === 0)
		throw new NodeOperationError(
			this.getNode(),
			'No recipients: Preview needs at least one input item',
		);
	const before = await existing(this, name);
	const draft = `preview-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
	const price = Number(this.getNodeParameter('pricePerSegment', 0, 0));
	const query = price > 0 ? { pricePerSegment: price } : undefined;
	let preview: CampaignPreview;
	try {
		await handOver(this, draft, settings, recipients);
		preview = (await workerRequest.call(
			this,
			{ method: 'GET', path: workerApiPaths.preview(draft), query },
			0,
		)) as CampaignPreview;
	} catch (error) {
		// The worker's words name the draft: the user knows the campaign by its own name.
		const nodeError = asNodeError(this.getNode(), error, 0);
		nodeError.message = nodeError.message.split(draft).join(name);
		if (nodeError.description)
			nodeError.description = nodeError.description.split(draft).join(name);
		throw nodeError;
	} finally {
		await workerRequest
			.call(this, { method: 'DELETE', path: workerApiPaths.campaign(draft) }, 0)
			.catch(() => undefined);
	}
	const note = startWould(name, settings, before);
	if (note) this.addExecutionHints({ message: note, location: 'outputPane' });
	const { samples, problems, ...counts } = preview;
	// Recipients by their place among the items (from 1), not by a line of a CSV n8n never saw.
	const byRecipient = <T extends { line: number; recipient?: number }>({
		line,
		recipient,
		...rest
	}: T) => ({ ...(recipient !== undefined ? { recipient } : { line }), ...rest });
	// `state` as before Preview stored nothing: a name nothing has started under reads as a draft.
	const json = {
		campaign: name,
		state: before?.state ?? 'draft',
		...(before ? { existing: before.state } : {}),
		leftOut: failed.length,
		...counts,
		problems: problems.map((p) => ({ ...byRecipient(p), message: n8nWording(p.message) })),
		samples: (samples ?? []).map(byRecipient),
	};
	return [
		{ json: json as unknown as INodeExecutionData['json'], pairedItem: { item: 0 } },
		...failed,
	];
}
