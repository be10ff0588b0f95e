import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { requests, unwrap } from '../../../../api';
import { apiRequest, CREDENTIAL_NAME } from '../../transport';
import { outcomes } from '../common/failureItem';
import { includeInputFieldsField } from '../common/includeInputFields';
import { runPerItem } from '../common/runPerItem';
import { simplifyFields } from '../common/simplify';
import { messageFields } from './messageFields';
import { messageReader } from './readMessage';
import { SIMPLIFIED_MESSAGE_FIELDS } from './simplifiedMessage';

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['send'] } },
	[...messageFields, includeInputFieldsField, ...simplifyFields],
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const readMessage = messageReader(this, await this.getCredentials(CREDENTIAL_NAME));
	const { success, failure } = outcomes(this, 'Sent', SIMPLIFIED_MESSAGE_FIELDS);
	return await runPerItem(
		this,
		readMessage,
		async ({ propertySid, body }, i) =>
			unwrap<IDataObject>(
				await apiRequest.call(this, requests.sendMessage(propertySid, body), i),
				'Message',
			),
		{ success, failure },
	);
}
