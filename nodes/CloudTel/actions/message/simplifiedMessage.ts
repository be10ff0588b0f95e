/**
 * A sent Message as Simplify shows it: what a workflow goes on with (its Sid, where it
 * stands, to whom and from what number, what it cost, its own reference and when). Left out:
 * AccountSid and PropertySid (the credential's), Text (the workflow's own), Direction (always
 * Outbound), DeliveryReceipt (the node's own option).
 */
export const SIMPLIFIED_MESSAGE_FIELDS = [
	'MessageSid',
	'Status',
	'From',
	'To',
	'NumSegments',
	'ExternalId',
	'ErrorCode',
	'Created',
] as const;
