import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { requests, unwrap, validatePathSid } from '../../../../api';
import { apiRequest } from '../../transport';
import { assertValid } from '../common/assertValid';
import { onlineLoginLocator } from '../common/onlineLoginLocator';
import { readLocator } from '../common/readLocator';
import { runPerItem } from '../common/runPerItem';

const properties: INodeProperties[] = [
	{ ...onlineLoginLocator, description: 'The online login to retrieve' },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['onlineLogin'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runPerItem(
		this,
		(i) => {
			const sid = readLocator(this, 'onlineLoginSid', i);
			assertValid(this.getNode(), validatePathSid('OnlineLoginSid', sid), i);
			return requests.getOnlineLogin(sid);
		},
		async (request, i) =>
			unwrap<IDataObject>(await apiRequest.call(this, request, i), 'OnlineLogin'),
	);
}
