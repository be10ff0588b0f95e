/**
 * An added Address as Simplify shows it: its Sid, its review Status and what tells it apart.
 * Left out: AccountSid (the credential's), Line2 and Region (rarely what a workflow reads next).
 */
export const SIMPLIFIED_ADDRESS_FIELDS = [
	'AddressSid',
	'Status',
	'Friendly',
	'Reference',
	'Line1',
	'City',
	'PostalCode',
	'CountryCode',
] as const;
