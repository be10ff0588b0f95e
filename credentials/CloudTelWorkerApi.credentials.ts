import type { IAuthenticateGeneric, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * The campaign API of a running `cloudtel worker` (its `/api/...` routes), not the
 * provider's: the worker sends the campaign paced, honours its suppression list and keeps
 * going when n8n stops.
 */
export class CloudTelWorkerApi implements ICredentialType {
	name = 'cloudTelWorkerApi';

	displayName = 'CloudTel Worker API';

	icon: Icon = { light: 'file:cloudtel.svg', dark: 'file:cloudtel.dark.svg' };

	documentationUrl = 'https://github.com/cloudtel/n8n-nodes-cloudtel#the-cloudtel-campaign-node';

	properties: INodeProperties[] = [
		{
			displayName: 'Worker URL',
			name: 'url',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. http://cloudtel-worker:8080',
			description:
				"Where the cloudtel worker's HTTP server answers (its server.port), without /api",
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The worker's server.apiToken (at least 16 characters), sent as Authorization: Bearer",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiToken}}' } },
	};

	// The test is the CloudTel Campaign node's `cloudTelWorkerApiTest` (its credentials'
	// testedBy): it checks that the answer is the worker's campaign list, and words a 404
	// (the API off: no server.apiToken) and an unreachable URL.
}
