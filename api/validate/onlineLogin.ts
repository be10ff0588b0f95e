import { checkNotBlank, checkShape, type Shape } from '../fields';
import { checkEmail } from '../rules/email';
import { checkLoginPassword } from '../rules/loginPassword';
import { checkPermissions } from '../rules/permission';
import { checkScopes } from '../rules/scopes';
import type { Violation } from '../violation';

const CREATE: Shape = {
	Email: { type: 'string', required: true, check: checkEmail },
	Password: { type: 'string', required: true, check: checkLoginPassword },
	FirstName: { type: 'string', required: true },
	LastName: { type: 'string', required: true },
	Scopes: { type: 'string', required: true, check: checkScopes },
	Enabled: { type: 'boolean' },
};

const UPDATE: Shape = {
	Email: { type: 'string', check: checkEmail },
	Password: { type: 'string', check: checkLoginPassword },
	Enabled: { type: 'boolean' },
	FirstName: { type: 'string', check: checkNotBlank },
	LastName: { type: 'string', check: checkNotBlank },
	Permissions: { type: 'array', check: checkPermissions },
};

export const UPDATE_ONLINE_LOGIN_FIELDS = Object.keys(UPDATE);

export function validateCreateOnlineLogin(body: unknown): Violation[] {
	return checkShape(body, CREATE);
}

/** A merge patch: absent is unchanged; null and unknown fields are refused. */
export function validateUpdateOnlineLogin(body: unknown): Violation[] {
	return checkShape(body, UPDATE, { patch: true });
}
