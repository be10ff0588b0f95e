import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export function checkCountryCode(field: string, value: string): Violation | undefined {
	if (/^[A-Z]{2}$/.test(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidCountryCode,
		`${field} must be two upper-case letters such as AU (got "${value}").`,
	);
}
