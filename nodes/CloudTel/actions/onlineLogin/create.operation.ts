import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	requests,
	unwrap,
	validateCreateOnlineLogin,
	type CreateOnlineLoginRequest,
} from '../../../../api';
import { apiRequest, CREDENTIAL_NAME } from '../../transport';
import { assertValid } from '../common/assertValid';
import { propertySidField, propertySidOr, validatePropertySid } from '../common/propertySid';
import { outcomes } from '../common/failureItem';
import { includeInputFieldsField } from '../common/includeInputFields';
import { runPerItem } from '../common/runPerItem';
import { joinScopes, scopeOptions } from '../common/scopes';

const properties: INodeProperties[] = [
	propertySidField(
		'The property the login is created for; its Permissions will carry this PropertySid',
	),
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'e.g. name@email.com',
		default: '',
		required: true,
		description: 'E-mail address, used as the user name',
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			'At least 12 characters with a lower-case letter, an upper-case letter, a digit and one of !@#$%^&*()_+',
	},
	{ displayName: 'First Name', name: 'firstName', type: 'string', default: '', required: true },
	{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '', required: true },
	{
		displayName: 'Scopes',
		name: 'scopes',
		type: 'multiOptions',
		options: scopeOptions,
		default: [],
		required: true,
		description: 'What the login may do in the property',
	},
	{
		displayName: 'Enabled',
		name: 'enabled',
		type: 'boolean',
		default: false,
		description: 'Whether the login may sign in straight away',
		// Off, as the provider creates logins; said under the field, since Update's Enabled starts on.
		hint: 'Off: the new login cannot sign in until it is enabled (Online Login > Update)',
	},
	includeInputFieldsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['onlineLogin'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const propertySidOf = propertySidOr(await this.getCredentials(CREDENTIAL_NAME));
	return await runPerItem(
		this,
		(i) => {
			const propertySid = propertySidOf(this.getNodeParameter('propertySid', i, ''));
			const body: CreateOnlineLoginRequest = {
				Email: this.getNodeParameter('email', i) as string,
				Password: this.getNodeParameter('password', i) as string,
				FirstName: this.getNodeParameter('firstName', i) as string,
				LastName: this.getNodeParameter('lastName', i) as string,
				Scopes: joinScopes(this.getNodeParameter('scopes', i)),
				Enabled: this.getNodeParameter('enabled', i, false) as boolean,
			};
			assertValid(
				this.getNode(),
				[...validatePropertySid(propertySid), ...validateCreateOnlineLogin(body)],
				i,
				{ PropertySid: propertySid, ...body },
			);
			return requests.createOnlineLogin(propertySid, body);
		},
		async (request, i) =>
			unwrap<IDataObject>(await apiRequest.call(this, request, i), 'OnlineLogin'),
		outcomes(this, 'Created'),
	);
}
