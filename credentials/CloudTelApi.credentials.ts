import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { basicAuthorization, paths } from '../api';

export class CloudTelApi implements ICredentialType {
	name = 'cloudTelApi';

	displayName = 'CloudTel API';

	icon: Icon = { light: 'file:cloudtel.svg', dark: 'file:cloudtel.dark.svg' };

	documentationUrl = 'https://github.com/cloudtel/n8n-nodes-cloudtel#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			// No default: a loopback default made a real account fail with ECONNREFUSED.
			default: '',
			required: true,
			placeholder: 'e.g. https://api.cloudtel.example',
			description:
				'Root of the CloudTel API your account uses, without /v2. To try workflows without sending real messages, give the URL of a local CloudTel sandbox (e.g. http://127.0.0.1:4010).',
		},
		{
			displayName: 'Account SID',
			name: 'accountSid',
			type: 'string',
			default: '',
			required: true,
			description: 'The AccountSid: the user name of HTTP Basic authentication',
		},
		{
			displayName: 'Auth Token',
			name: 'authToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The AuthToken: the password of HTTP Basic authentication',
		},
		{
			displayName: 'Default Property SID',
			name: 'defaultPropertySid',
			type: 'string',
			default: '',
			placeholder: 'e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
			description:
				"The PropertySid used by every CloudTel node whose own Property SID is left empty. CloudTel has no way to list properties, so this saves copying the SID into each node.",
		},
	];

	// A function rather than a generic block so the header comes from api/, where the
	// scheme is written once.
	authenticate = async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: basicAuthorization(String(credentials.accountSid ?? ''), String(credentials.authToken ?? '')),
		},
	});

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: paths.onlineLogins(),
			method: 'GET',
			qs: { Results_Count: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'CloudTel refused the Account SID and Auth Token (401). Check both, and that the Base URL points at the right environment.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'No CloudTel API at this Base URL (404). Give the root URL, without /v2.',
				},
			},
		],
	};
}
