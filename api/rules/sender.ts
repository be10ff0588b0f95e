import { ErrorCodes } from '../errorCodes';
import { isBlank } from '../fields';
import { violation, type Violation } from '../violation';
import { isE164, isNorthAmerican } from './phone';

export type SenderKind = 'leased' | 'e164' | 'alphanumeric';

const ALPHANUMERIC = /^[A-Za-z0-9 ]{1,11}$/;
const LETTER = /[A-Za-z]/;

export function isAlphanumericSender(value: unknown): value is string {
	return typeof value === 'string' && ALPHANUMERIC.test(value) && LETTER.test(value);
}

/** The kind a From value asks for; undefined when it is none of the three. */
export function senderKind(from: unknown): SenderKind | undefined {
	if (isBlank(from)) return 'leased';
	if (isE164(from)) return 'e164';
	if (isAlphanumericSender(from)) return 'alphanumeric';
	return undefined;
}

/**
 * The kind actually used for a recipient: an alphanumeric sender to a +1 number is
 * replaced by a leased number (contract.md), because US and Canadian operators refuse them.
 */
export function effectiveSenderKind(from: unknown, to: string): SenderKind | undefined {
	const kind = senderKind(from);
	if (kind === 'alphanumeric' && isNorthAmerican(to)) return 'leased';
	return kind;
}

export function checkSender(field: string, value: string): Violation | undefined {
	if (senderKind(value) !== undefined) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidSenderId,
		`${field} must be an E.164 number, an alphanumeric ID of 1 to 11 letters, digits or spaces with at least one letter, or blank for a leased number (got "${value}").`,
	);
}

/** ForwardFromSms: an E.164 number or an alphanumeric ID, never blank-for-leased. */
export function checkForwardSender(field: string, value: string): Violation | undefined {
	if (isE164(value) || isAlphanumericSender(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidSenderId,
		`${field} must be an E.164 number or an alphanumeric ID of 1 to 11 characters (got "${value}").`,
	);
}
