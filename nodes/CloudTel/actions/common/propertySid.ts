import type { ICredentialDataDecryptedObject, INodeProperties } from 'n8n-workflow';
import { ErrorCodes, isBlank, violation, type Violation } from '../../../../api';

/**
 * The provider has no operation to list properties, so the Sid is typed or mapped, or
 * comes from the credential's Default Property SID; so it is not required here.
 */
export function propertySidField(purpose: string): INodeProperties {
	return {
		displayName: 'Property SID',
		name: 'propertySid',
		type: 'string',
		default: '',
		placeholder: 'e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
		description: `${purpose}. Leave empty to use the Default Property SID of the CloudTel API credential.`,
		// Shown under the field, not only on hover: an empty field is allowed, and this says why.
		hint: "Leave empty to use the credential's Default Property SID",
	};
}

/** A node's Property SID, or the credential's Default Property SID when the node's is blank. */
export function propertySidOr(
	credentials: ICredentialDataDecryptedObject,
): (value: unknown) => string {
	const fallback = String(credentials.defaultPropertySid ?? '').trim();
	return (value) => {
		const own =
			typeof value === 'string'
				? value.trim()
				: value === undefined || value === null
					? ''
					: String(value).trim();
		return own === '' ? fallback : own;
	};
}

/** Refuses a Property SID that is blank in the node and in the credential alike. */
export function validatePropertySid(sid: string): Violation[] {
	if (!isBlank(sid)) return [];
	return [
		violation(
			'PropertySid',
			ErrorCodes.FieldRequired,
			"No Property SID: fill in this node's Property SID field, or the Default Property SID of the CloudTel API credential it uses.",
		),
	];
}
