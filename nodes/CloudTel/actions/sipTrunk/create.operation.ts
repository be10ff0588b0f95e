import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	requests,
	SipTrunkType,
	validateCreateSipTrunk,
	type CreateSipTrunkRequest,
} from '../../../../api';
import { apiRequest, CREDENTIAL_NAME } from '../../transport';
import { assertValid } from '../common/assertValid';
import { compact } from '../common/compact';
import { propertySidField, propertySidOr, validatePropertySid } from '../common/propertySid';
import { outcomes } from '../common/failureItem';
import { includeInputFieldsField } from '../common/includeInputFields';
import { runPerItem } from '../common/runPerItem';

const properties: INodeProperties[] = [
	propertySidField('The property the trunk belongs to'),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'Name of the trunk',
	},
	{
		displayName: 'Default Caller ID',
		name: 'defaultCallerId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +61212345678',
		description:
			'An Australian E.164 number that is neither shared-rate (+6113) nor toll-free (+611800)',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: [
			{
				name: 'IP to IP',
				value: SipTrunkType.IpToIp,
				description: 'Calls come from listed IP addresses',
			},
			{
				name: 'Authenticated',
				value: SipTrunkType.Authenticated,
				description: 'Calls authenticate with a realm and password',
			},
		],
		// A literal, as n8n's scan requires; a test holds it equal to SipTrunkType.IpToIp.
		default: 0,
	},
	{
		displayName: 'IP Addresses',
		name: 'ipAddresses',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add IP address',
		default: {},
		required: true,
		displayOptions: { show: { type: [SipTrunkType.IpToIp] } },
		options: [
			{
				displayName: 'IP Address',
				name: 'address',
				values: [
					{
						displayName: 'IP Address',
						name: 'IpAddress',
						type: 'string',
						default: '',
						placeholder: 'e.g. 52.64.10.20 or 52.64.10.0/24',
						description: 'A public IPv4 address or CIDR block, /24 to /32',
					},
				],
			},
		],
	},
	{
		displayName: 'Realm',
		name: 'realm',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { type: [SipTrunkType.Authenticated] } },
		description: 'The SIP authentication realm',
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		displayOptions: { show: { type: [SipTrunkType.Authenticated] } },
		description:
			'At least 10 characters with a lower-case letter, an upper-case letter, a digit and a special character; no character three times in a row',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		options: [
			{
				displayName: 'Allowed Countries',
				name: 'allowedCountries',
				type: 'string',
				default: '',
				placeholder: 'e.g. AU, NZ',
				description: 'Two-letter country codes, separated by commas; AU when none are given',
			},
			{
				displayName: 'Channel Limit',
				name: 'ChannelLimit',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1,
				description: 'Number of channels',
			},
			{ displayName: 'Customer Reference', name: 'CustomerReference', type: 'string', default: '' },
		],
	},
	includeInputFieldsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['sipTrunk'], operation: ['create'] } },
	properties,
);

function readTrunk(ctx: IExecuteFunctions, i: number): CreateSipTrunkRequest {
	const type = Number(ctx.getNodeParameter('type', i)) as CreateSipTrunkRequest['Type'];
	const { allowedCountries, ...extra } = ctx.getNodeParameter(
		'additionalFields',
		i,
		{},
	) as IDataObject;
	const countries = String(allowedCountries ?? '')
		.split(',')
		.map((c) => c.trim())
		.filter((c) => c !== '')
		.map((CountryCode) => ({ CountryCode }));
	const trunk = compact<CreateSipTrunkRequest>({
		Name: ctx.getNodeParameter('name', i),
		DefaultCallerId: ctx.getNodeParameter('defaultCallerId', i),
		Type: type,
		SipTrunkAllowedCountries: countries,
		...extra,
	});
	if (type === SipTrunkType.IpToIp) {
		const entries = ((ctx.getNodeParameter('ipAddresses', i, {}) as IDataObject).address ??
			[]) as Array<{ IpAddress?: string }>;
		trunk.SipTrunkIpAddresses = entries.map((e) => ({
			IpAddress: String(e.IpAddress ?? '').trim(),
		}));
	} else {
		trunk.SipTrunkCredentials = {
			Realm: ctx.getNodeParameter('realm', i, '') as string,
			Password: ctx.getNodeParameter('password', i, '') as string,
		};
	}
	return trunk;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const propertySidOf = propertySidOr(await this.getCredentials(CREDENTIAL_NAME));
	return await runPerItem(
		this,
		(i) => {
			const propertySid = propertySidOf(this.getNodeParameter('propertySid', i, ''));
			const trunk = readTrunk(this, i);
			assertValid(
				this.getNode(),
				[...validatePropertySid(propertySid), ...validateCreateSipTrunk(trunk)],
				i,
				{ PropertySid: propertySid, ...trunk },
			);
			return requests.createSipTrunk(propertySid, trunk);
		},
		async (request, i) => {
			const body = await apiRequest.call(this, request, i);
			return typeof body === 'object' && body !== null
				? (body as IDataObject)
				: { SipTrunkSid: String(body) };
		},
		outcomes(this, 'Created'),
	);
}
