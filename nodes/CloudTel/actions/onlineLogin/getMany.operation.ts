import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	MAX_PAGE_SIZE,
	requests,
	validateListOnlineLogins,
	type ListOnlineLoginsParams,
} from '../../../../api';
import { apiRequest } from '../../transport';
import { assertValid } from '../common/assertValid';
import { runPerItem } from '../common/runPerItem';
import { readLoginPage } from './loginPage';

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Skip',
				name: 'skip',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'How many logins (oldest first) to skip before the results begin',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['onlineLogin'], operation: ['getMany'] } },
	properties,
);

interface Listing {
	returnAll: boolean;
	limit: number;
	first: ListOnlineLoginsParams;
}

/**
 * Pages with NextPageToken (sent back as PageToken); when a provider leaves the token
 * out but TotalCount says there is more, falls back to Results_Skip.
 */
async function listLogins(
	this: IExecuteFunctions,
	listing: Listing,
	itemIndex: number,
): Promise<IDataObject[]> {
	const { returnAll, limit, first } = listing;
	const out: IDataObject[] = [];
	let params = first;
	for (;;) {
		const page = readLoginPage(
			await apiRequest.call(this, requests.listOnlineLogins(params), itemIndex),
		);
		out.push(...page.logins);
		if (!returnAll && out.length >= limit) return out.slice(0, limit);
		if (page.logins.length === 0) return out;
		const count = first.Results_Count;
		if (page.nextPageToken) params = { Results_Count: count, PageToken: page.nextPageToken };
		else if (
			page.totalCount !== undefined &&
			(first.Results_Skip ?? 0) + out.length < page.totalCount
		) {
			params = { Results_Count: count, Results_Skip: (first.Results_Skip ?? 0) + out.length };
		} else return out;
	}
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runPerItem(
		this,
		(i): Listing => {
			const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
			const limit = returnAll ? Infinity : (this.getNodeParameter('limit', i, 50) as number);
			const skip = this.getNodeParameter('options.skip', i, 0) as number;
			const pageSize = returnAll ? MAX_PAGE_SIZE : Math.min(limit, MAX_PAGE_SIZE);
			const checked = validateListOnlineLogins({ Results_Count: pageSize, Results_Skip: skip });
			assertValid(this.getNode(), checked.violations, i);
			return {
				returnAll,
				limit,
				first: {
					Results_Count: checked.params.Results_Count,
					Results_Skip: checked.params.Results_Skip,
				},
			};
		},
		async (listing, i) => await listLogins.call(this, listing, i),
	);
}
