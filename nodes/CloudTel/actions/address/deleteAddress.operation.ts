import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { requests, validatePathSid } from '../../../../api';
import { apiRequest } from '../../transport';
import { assertValid } from '../common/assertValid';
import { runPerItem } from '../common/runPerItem';

const properties: INodeProperties[] = [
	{
		displayName: 'Address SID',
		name: 'addressSid',
		type: 'string',
		default: '',
		required: true,
		description:
			'The AddressSid to delete. Refused while a number relies on the address for registration.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['address'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await runPerItem(
		this,
		(i) => {
			const sid = String(this.getNodeParameter('addressSid', i, '')).trim();
			assertValid(this.getNode(), validatePathSid('AddressSid', sid), i);
			return { sid, request: requests.deleteAddress(sid) };
		},
		async ({ sid, request }, i) => {
			const body = await apiRequest.call(this, request, i);
			// n8n's own nodes answer a delete with `deleted: true`; the Sid says which.
			return {
				AddressSid: sid,
				deleted: true,
				...(typeof body === 'object' && body !== null ? (body as IDataObject) : {}),
			};
		},
	);
}
