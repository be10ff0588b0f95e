import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { requests, unwrap, validateAddAddress, type AddAddressRequest } from '../../../../api';
import { apiRequest, CREDENTIAL_NAME } from '../../transport';
import { assertValid } from '../common/assertValid';
import { compact } from '../common/compact';
import { outcomes } from '../common/failureItem';
import { includeInputFieldsField } from '../common/includeInputFields';
import { runPerItem } from '../common/runPerItem';
import { simplifyFields } from '../common/simplify';
import { SIMPLIFIED_ADDRESS_FIELDS } from './simplifiedAddress';

const properties: INodeProperties[] = [
	{
		displayName: 'Line 1',
		name: 'line1',
		type: 'string',
		default: '',
		required: true,
		description: 'Address line 1',
	},
	{ displayName: 'City', name: 'city', type: 'string', default: '', required: true },
	{
		displayName: 'Country Code',
		name: 'countryCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. AU',
		description: 'The ISO 3166 two-letter country code, in either case',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		options: [
			{
				displayName: 'Friendly Name',
				name: 'Friendly',
				type: 'string',
				default: '',
				description: 'A name for internal reference',
			},
			{ displayName: 'Line 2', name: 'Line2', type: 'string', default: '' },
			{ displayName: 'Postal Code', name: 'PostalCode', type: 'string', default: '' },
			{
				displayName: 'Reference',
				name: 'Reference',
				type: 'string',
				default: '',
				description: 'A free reference string',
			},
			{ displayName: 'Region', name: 'Region', type: 'string', default: '' },
		],
	},
	includeInputFieldsField,
	...simplifyFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['address'], operation: ['add'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	// The AccountSid in the path must be the caller's own, so it comes from the credential.
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const accountSid = String(credentials.accountSid ?? '');
	return await runPerItem(
		this,
		(i) => {
			const address = compact<AddAddressRequest>({
				Line1: this.getNodeParameter('line1', i),
				City: this.getNodeParameter('city', i),
				// The provider wants upper case; a user typing "au" means AU.
				CountryCode: String(this.getNodeParameter('countryCode', i, ''))
					.trim()
					.toUpperCase(),
				...(this.getNodeParameter('additionalFields', i, {}) as IDataObject),
			});
			assertValid(this.getNode(), validateAddAddress(address), i, address);
			return requests.addAddress(accountSid, address);
		},
		async (request, i) => unwrap<IDataObject>(await apiRequest.call(this, request, i), 'Address'),
		outcomes(this, 'Created', SIMPLIFIED_ADDRESS_FIELDS),
	);
}
