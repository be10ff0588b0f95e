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
			default: 'http://127.0.0.1:4010',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Root of the CloudTel API, without /v2. Point it at the local sandbox to try workflows without sending real messages.',
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
