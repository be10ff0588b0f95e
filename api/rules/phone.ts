import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

/** E.164 as contract.md makes it exact: `+`, then 8 to 15 digits, the first not 0. */
const E164 = /^\+[1-9]\d{7,14}$/;

export function isE164(value: unknown): value is string {
	return typeof value === 'string' && E164.test(value);
}

/** US and Canada share +1; alphanumeric senders are not delivered there. */
export function isNorthAmerican(e164: string): boolean {
	return e164.startsWith('+1');
}

export function checkE164(field: string, value: string): Violation | undefined {
	if (isE164(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidPhoneNumberFormat,
		`${field} must be an E.164 number: + then 8 to 15 digits, the first not 0 (got "${value}").`,
	);
}
