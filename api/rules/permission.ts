import { ErrorCodes } from '../errorCodes';
import { checkShape, isPlainObject, type Shape } from '../fields';
import { isSid } from '../sid';
import type { Permission } from '../types/onlineLogin';
import { violation, within, type Violation } from '../violation';
import { checkScopes } from './scopes';

function checkSidField(field: string, value: string): Violation | undefined {
	return isSid(value)
		? undefined
		: violation(
				field,
				ErrorCodes.InvalidSid,
				`${field} must be a lower-case UUID (got "${value}").`,
			);
}

const PERMISSION: Shape = {
	AccountSid: { type: 'string', check: checkSidField },
	PropertySid: { type: 'string', check: checkSidField },
	Scopes: { type: 'string', required: true, check: checkScopes },
};

/** A permission carries exactly one of AccountSid or PropertySid, plus Scopes. */
export function checkPermissions(field: string, value: unknown[]): Violation[] {
	const out: Violation[] = [];
	value.forEach((entry, i) => {
		const name = `${field}[${i}]`;
		if (!isPlainObject(entry)) {
			out.push(
				violation(
					name,
					ErrorCodes.InvalidType,
					`${name} must be an object with AccountSid or PropertySid, and Scopes.`,
				),
			);
			return;
		}
		out.push(...within(name, checkShape(entry, PERMISSION)));
		const hasAccount = entry.AccountSid !== undefined && entry.AccountSid !== null;
		const hasProperty = entry.PropertySid !== undefined && entry.PropertySid !== null;
		if (hasAccount === hasProperty) {
			out.push(
				violation(
					name,
					ErrorCodes.InvalidPermission,
					`${name} must carry exactly one of AccountSid or PropertySid, ${hasAccount ? 'not both' : 'and has neither'}.`,
				),
			);
		}
	});
	return out;
}

export interface OwnershipContext {
	accountSid: string;
	ownsProperty: (propertySid: string) => boolean;
}

/** The Sids in permissions must be the caller's account or one of its properties. */
export function checkPermissionOwnership(
	field: string,
	permissions: Permission[],
	ctx: OwnershipContext,
): Violation[] {
	const out: Violation[] = [];
	permissions.forEach((p, i) => {
		if (p.AccountSid !== undefined && p.AccountSid !== ctx.accountSid) {
			out.push(
				violation(
					`${field}[${i}].AccountSid`,
					ErrorCodes.InvalidPermission,
					`${field}[${i}].AccountSid must be your own account.`,
				),
			);
		}
		if (p.PropertySid !== undefined && !ctx.ownsProperty(p.PropertySid)) {
			out.push(
				violation(
					`${field}[${i}].PropertySid`,
					ErrorCodes.InvalidPermission,
					`${field}[${i}].PropertySid is not a property of your account.`,
				),
			);
		}
	});
	return out;
}
