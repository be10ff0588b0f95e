import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { basicAuthorization } from '../api';

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
				'Root of the CloudTel API your account uses (a trailing /v2 is accepted). To try workflows without sending real messages, give the URL of a local CloudTel sandbox (e.g. http://127.0.0.1:4010).',
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
				'The PropertySid used by every CloudTel node whose own Property SID is left empty. CloudTel has no way to list properties, so this saves copying the SID into each node.',
		},
	];

	// A function rather than a generic block so the header comes from api/, where the
	// scheme is written once.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: basicAuthorization(
				String(credentials.accountSid ?? ''),
				String(credentials.authToken ?? ''),
			),
		},
	});

	// The test is the CloudTel node's `cloudTelApiTest` (its credentials' testedBy): it also
	// checks that the answer is CloudTel's, and words an unreachable Base URL as the node does.
}
