import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';
import { isE164 } from './phone';

/**
 * A SIP trunk's DefaultCallerId: an Australian number that is neither shared-rate
 * (13/1300, +6113) nor toll-free (1800, +611800).
 */
export function checkAuCallerId(field: string, value: string): Violation | undefined {
	if (!isE164(value)) {
		return violation(
			field,
			ErrorCodes.InvalidPhoneNumberFormat,
			`${field} must be an E.164 number with + (got "${value}").`,
		);
	}
	if (!value.startsWith('+61')) {
		return violation(
			field,
			ErrorCodes.InvalidCallerId,
			`${field} must be an Australian (+61) number.`,
		);
	}
	if (value.startsWith('+6113')) {
		return violation(
			field,
			ErrorCodes.InvalidCallerId,
			`${field} cannot be a shared-rate (13/1300) number.`,
		);
	}
	if (value.startsWith('+611800')) {
		return violation(
			field,
			ErrorCodes.InvalidCallerId,
			`${field} cannot be a toll-free (1800) number.`,
		);
	}
	return undefined;
}
