import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { workerApiPaths } from '../../../../api';
import { workerRequest } from '../../transport';
import { n8nWording } from '../../transport/n8nWording';
import { perCampaign } from '../common/perCampaign';

const properties: INodeProperties[] = [
	{
		displayName: 'Recipients Not Sent',
		name: 'notSentLimit',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 100,
		description:
			'List up to this many recipients that were not sent (invalid, refused, or sent without an answer), with their number and why; 0 for the counts only',
	},
];

export const description = updateDisplayOptions({ show: { operation: ['getReport'] } }, properties);

/** The worker answers pages of at most this many. */
const PAGE = 1000;

interface NotSentPage {
	recipients: Array<{ line: number; to?: string; status: string; code?: string; message?: string }>;
	next?: number;
}

/**
 * The campaign's report, as `cloudtel campaign report --json` gives it, and the recipients
 * not sent, read page by page up to Recipients Not Sent, so an invalid number can be found
 * and fixed after the campaign (`notSentMore` when there are more).
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await perCampaign(
		this,
		async (name, i) => {
			const limit = Math.max(0, Math.floor(Number(this.getNodeParameter('notSentLimit', i, 100))));
			const report = (await workerRequest.call(
				this,
				{
					method: 'GET',
					path: workerApiPaths.report(name),
					query: limit > 0 ? { notSentLimit: Math.min(limit, PAGE) } : undefined,
				},
				i,
			)) as IDataObject & { notSent?: NotSentPage };
			if (limit === 0 || report.notSent === undefined) return { campaign: name, ...report };
			const rows = [...report.notSent.recipients];
			let next = report.notSent.next;
			while (next !== undefined && rows.length < limit) {
				const page = (await workerRequest.call(
					this,
					{
						method: 'GET',
						path: workerApiPaths.report(name),
						query: { notSentLimit: Math.min(limit - rows.length, PAGE), notSentAfter: next },
					},
					i,
				)) as { notSent: NotSentPage };
				rows.push(...page.notSent.recipients);
				next = page.notSent.next;
			}
			// By place among the items handed over (from 1), not by the line of the CSV the worker
			// made of them (its header is line 1), which n8n never shows.
			const notSent = rows.map(({ line, to, status, code, message }) => ({
				recipient: line - 1,
				...(to ? { to } : {}),
				status,
				...(code ? { code } : {}),
				...(message ? { message: n8nWording(message) } : {}),
			}));
			return { campaign: name, ...report, notSent, notSentMore: next !== undefined } as IDataObject;
		},
		{ readOnly: true },
	);
}
