import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export const SIP_PASSWORD_MIN_LENGTH = 10;

/** The first character that stands three times in a row, counting code points. */
function tripled(value: string): string | undefined {
	const chars = [...value];
	for (let i = 2; i < chars.length; i++) {
		if (chars[i] === chars[i - 1] && chars[i] === chars[i - 2]) return chars[i];
	}
	return undefined;
}

export function sipPasswordProblems(value: string): string[] {
	const problems: string[] = [];
	if ([...value].length < SIP_PASSWORD_MIN_LENGTH)
		problems.push(`needs at least ${SIP_PASSWORD_MIN_LENGTH} characters`);
	if (!/[a-z]/.test(value)) problems.push('needs a lower-case letter');
	if (!/[A-Z]/.test(value)) problems.push('needs an upper-case letter');
	if (!/[0-9]/.test(value)) problems.push('needs a digit');
	if (!/[^A-Za-z0-9]/.test(value)) problems.push('needs a special (non-alphanumeric) character');
	const t = tripled(value);
	if (t !== undefined) problems.push(`has "${t}" three times in a row`);
	return problems;
}

export function checkSipPassword(field: string, value: string): Violation | undefined {
	const problems = sipPasswordProblems(value);
	if (problems.length === 0) return undefined;
	return violation(field, ErrorCodes.InvalidPassword, `${field} ${problems.join(', ')}.`);
}
