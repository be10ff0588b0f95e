/**
 * Why a CSV row is not sent, before the provider sees it. Codes from api/'s validation
 * (INVALID_TEXT_LENGTH and the rest) appear beside these.
 */
export const RowErrors = {
	/** --require-consent: the row's number has no consent, in the list or recorded before. */
	NoConsent: 'NO_CONSENT',
	CsvMalformed: 'CSV_MALFORMED',
	FieldCount: 'FIELD_COUNT',
	InvalidNumber: 'INVALID_NUMBER',
	EmptyValue: 'EMPTY_VALUE',
	InvalidTimeZone: 'INVALID_TIME_ZONE',
	Duplicate: 'DUPLICATE',
	Suppressed: 'SUPPRESSED',
	/** --countries: the number belongs to another country. */
	CountryNotAllowed: 'COUNTRY_NOT_ALLOWED',
	/** A fixed-line-only number, without --allow-landlines. */
	NotMobile: 'NOT_MOBILE',
} as const;
