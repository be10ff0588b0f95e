import { ErrorCodes } from '../errorCodes';
import { isBlank } from '../fields';
import { violation, type Violation } from '../violation';

/**
 * A Sid that goes into a request path. Only presence is checked: the provider answers
 * 404 for an unknown one, and clients stay lenient about the Sid format (contract.md).
 */
export function validatePathSid(field: string, value: unknown): Violation[] {
	if (typeof value !== 'string' || isBlank(value))
		return [violation(field, ErrorCodes.FieldRequired, `${field} is required.`)];
	return [];
}
