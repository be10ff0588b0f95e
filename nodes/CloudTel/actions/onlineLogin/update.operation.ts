import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	ErrorCodes,
	requests,
	validatePathSid,
	validateUpdateOnlineLogin,
	violation,
	type Permission,
	type UpdateOnlineLoginRequest,
} from '../../../../api';
import { apiRequest, CREDENTIAL_NAME } from '../../transport';
import { assertValid } from '../common/assertValid';
import { onlineLoginLocator } from '../common/onlineLoginLocator';
import { readLocator } from '../common/readLocator';
import { runPerItem } from '../common/runPerItem';
import { joinScopes, scopeOptions } from '../common/scopes';

const properties: INodeProperties[] = [
	{ ...onlineLoginLocator, description: 'The online login to update' },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		description: 'Only the fields added here are sent; everything else stays as it is',
		options: [
			{
				displayName: 'Email',
				name: 'Email',
				type: 'string',
				placeholder: 'e.g. name@email.com',
				default: '',
			},
			{
				displayName: 'Enabled',
				name: 'Enabled',
				type: 'boolean',
				default: true,
				description: 'Whether the login may sign in',
			},
			{ displayName: 'First Name', name: 'FirstName', type: 'string', default: '' },
			{ displayName: 'Last Name', name: 'LastName', type: 'string', default: '' },
			{
				displayName: 'Password',
				name: 'Password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'At least 12 characters with a lower-case letter, an upper-case letter, a digit and one of !@#$%^&*()_+',
			},
			{
				displayName: 'Permissions',
				name: 'Permissions',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add permission',
				default: {},
				description:
					"Replaces the login's whole set of permissions with the entries listed here. With no entries nothing is sent and the permissions stay as they are (n8n does not keep an empty list).",
				options: [
					{
						displayName: 'Permission',
						name: 'permission',
						values: [
							{
								displayName: 'Applies To',
								name: 'target',
								type: 'options',
								options: [
									{ name: 'Property', value: 'property' },
									{
										name: 'Account',
										value: 'account',
										description: "The credential's own account",
									},
								],
								default: 'property',
							},
							{
								displayName: 'Property SID',
								name: 'propertySid',
								type: 'string',
								default: '',
								displayOptions: { show: { target: ['property'] } },
							},
							{
								displayName: 'Scopes',
								name: 'scopes',
								type: 'multiOptions',
								options: scopeOptions,
								default: [],
							},
						],
					},
				],
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['onlineLogin'], operation: ['update'] } },
	properties,
);

type PermissionEntry = { target?: string; propertySid?: string; scopes?: unknown };

function readPermissions(value: unknown, accountSid: string): Permission[] {
	const entries = ((value as IDataObject | undefined)?.permission ?? []) as PermissionEntry[];
	return entries.map((entry) =>
		entry.target === 'account'
			? { AccountSid: accountSid, Scopes: joinScopes(entry.scopes) }
			: { PropertySid: String(entry.propertySid ?? '').trim(), Scopes: joinScopes(entry.scopes) },
	);
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	return await runPerItem(
		this,
		(i) => {
			const sid = readLocator(this, 'onlineLoginSid', i);
			// A merge patch: exactly the fields the user added, blanks included, so that a
			// blank the user typed is refused rather than silently dropped.
			const { Permissions, ...fields } = this.getNodeParameter(
				'updateFields',
				i,
				{},
			) as IDataObject;
			const patch = { ...fields } as UpdateOnlineLoginRequest;
			// An empty list would take every permission away; n8n drops an empty fixed
			// collection when it saves, so a user cannot mean it: it is not sent.
			const permissions =
				Permissions === undefined
					? []
					: readPermissions(Permissions, String(credentials.accountSid ?? ''));
			if (permissions.length > 0) patch.Permissions = permissions;
			assertValid(
				this.getNode(),
				[...validatePathSid('OnlineLoginSid', sid), ...validateUpdateOnlineLogin(patch)],
				i,
			);
			if (Object.keys(patch).length === 0) {
				assertValid(
					this.getNode(),
					[
						violation(
							'Update Fields',
							ErrorCodes.FieldRequired,
							'Add at least one field to update.',
						),
					],
					i,
				);
			}
			return { sid, request: requests.updateOnlineLogin(sid, patch) };
		},
		async ({ sid, request }, i) => {
			await apiRequest.call(this, request, i);
			// 204 has no body: echo what changed, never the password.
			const { Password, ...changed } = request.body as UpdateOnlineLoginRequest;
			return {
				OnlineLoginSid: sid,
				...changed,
				...(Password !== undefined ? { PasswordChanged: true } : {}),
			} as IDataObject;
		},
	);
}
