import type { INodeProperties } from 'n8n-workflow';

/** The provider has no operation to list properties, so the Sid is typed or mapped. */
export const propertySidField: INodeProperties = {
	displayName: 'Property SID',
	name: 'propertySid',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
	description: 'The PropertySid of the property (project)',
};
