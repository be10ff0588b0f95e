import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export const SCOPES = [
	'Manage',
	'Reporting',
	'ManageSms',
	'ReportingSms',
	'Integrations',
	'Billing',
	'ProjectManagement',
	'UserManagement',
	'SipManagement',
	'ProvisionSms',
	'OutboundCallReporting',
	'DisconnectNumbers',
	'Admin',
] as const;

export type Scope = (typeof SCOPES)[number];

const KNOWN = new Set<string>(SCOPES);

/** Splits a comma-separated scope list; spaces around commas are allowed. */
export function splitScopes(value: string): string[] {
	return value.split(',').map((s) => s.trim());
}

export function checkScopes(field: string, value: string): Violation | undefined {
	const names = splitScopes(value);
	if (names.some((n) => n === '')) {
		return violation(
			field,
			ErrorCodes.InvalidScope,
			`${field} must be a comma-separated list of scope names with no empty entries.`,
		);
	}
	const unknown = names.filter((n) => !KNOWN.has(n));
	if (unknown.length > 0) {
		return violation(
			field,
			ErrorCodes.InvalidScope,
			`${field} has unknown scope ${unknown.map((u) => `"${u}"`).join(', ')}; known scopes: ${SCOPES.join(', ')}.`,
		);
	}
	return undefined;
}
