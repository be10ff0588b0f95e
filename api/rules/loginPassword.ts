import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export const LOGIN_PASSWORD_MIN_LENGTH = 12;
export const LOGIN_PASSWORD_SPECIALS = '!@#$%^&*()_+';

/** What a login password lacks, in words; empty when it is acceptable. */
export function loginPasswordProblems(value: string): string[] {
	const problems: string[] = [];
	// Characters are code points, as for Text and SIP passwords: an emoji is one, not two.
	if ([...value].length < LOGIN_PASSWORD_MIN_LENGTH)
		problems.push(`at least ${LOGIN_PASSWORD_MIN_LENGTH} characters`);
	if (!/[a-z]/.test(value)) problems.push('a lower-case letter');
	if (!/[A-Z]/.test(value)) problems.push('an upper-case letter');
	if (!/[0-9]/.test(value)) problems.push('a digit');
	if (![...LOGIN_PASSWORD_SPECIALS].some((c) => value.includes(c)))
		problems.push(`one of ${LOGIN_PASSWORD_SPECIALS}`);
	return problems;
}

export function checkLoginPassword(field: string, value: string): Violation | undefined {
	const problems = loginPasswordProblems(value);
	if (problems.length === 0) return undefined;
	return violation(field, ErrorCodes.InvalidPassword, `${field} needs ${problems.join(', ')}.`);
}
