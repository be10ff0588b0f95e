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
	validateUpdateProperty,
	violation,
	WINDOWS_TIME_ZONES,
	type UpdatePropertyRequest,
} from '../../../../api';
import { apiRequest, CREDENTIAL_NAME } from '../../transport';
import { assertValid } from '../common/assertValid';
import { propertySidField, propertySidOr, validatePropertySid } from '../common/propertySid';
import { runPerItem } from '../common/runPerItem';

const properties: INodeProperties[] = [
	propertySidField('The property (project) to update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		description: 'Only the fields added here are sent; everything else stays as it is',
		options: [
			{
				displayName: 'Active',
				name: 'Active',
				type: 'boolean',
				default: true,
				description: 'Whether the property is active',
			},
			{
				displayName: 'Call Recording Enabled',
				name: 'CallRecordingEnabled',
				type: 'boolean',
				default: false,
				description: 'Whether calls are recorded',
			},
			{
				displayName: 'Integrations Enabled',
				name: 'IntegrationsEnabled',
				type: 'boolean',
				default: false,
				description: 'Whether integrations are enabled',
			},
			{
				displayName: 'Main Domain',
				name: 'MainDomain',
				type: 'string',
				placeholder: 'e.g. example.com',
				default: '',
			},
			{ displayName: 'Name', name: 'Name', type: 'string', default: '' },
			{
				displayName: 'SMS Enabled',
				name: 'SmsEnabled',
				type: 'boolean',
				default: true,
				description: 'Whether the property may send SMS',
			},
			{
				displayName: 'Time Zone',
				name: 'TimeZone',
				type: 'options',
				// Sorted as people read ("Cen. Australia" beside "Central ..."), each with the
				// IANA zone people know it by; the value sent is the Windows ID the API wants.
				options: Object.entries(WINDOWS_TIME_ZONES)
					.map(([id, iana]) => ({ name: `${id} (${iana})`, value: id }))
					.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })),
				default: 'AUS Eastern Standard Time',
				description:
					'The time zone of the property: a Windows time zone ID, shown with its IANA name',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['property'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const propertySidOf = propertySidOr(await this.getCredentials(CREDENTIAL_NAME));
	return await runPerItem(
		this,
		(i) => {
			const propertySid = propertySidOf(this.getNodeParameter('propertySid', i, ''));
			const patch = {
				...(this.getNodeParameter('updateFields', i, {}) as IDataObject),
			} as UpdatePropertyRequest;
			assertValid(
				this.getNode(),
				[...validatePropertySid(propertySid), ...validateUpdateProperty(patch)],
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
			return { propertySid, request: requests.updateProperty(propertySid, patch) };
		},
		async ({ propertySid, request }, i) => {
			await apiRequest.call(this, request, i);
			// 204 has no body: echo what changed.
			return { PropertySid: propertySid, ...(request.body as IDataObject) };
		},
	);
}
