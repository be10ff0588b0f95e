import { checkNotBlank, checkShape, type Shape } from '../fields';
import { checkDomain } from '../rules/email';
import { checkWindowsTimeZone } from '../rules/timeZone';
import type { Violation } from '../violation';

const UPDATE: Shape = {
	Name: { type: 'string', check: checkNotBlank },
	MainDomain: { type: 'string', check: checkDomain },
	TimeZone: { type: 'string', check: checkWindowsTimeZone },
	SmsEnabled: { type: 'boolean' },
	CallRecordingEnabled: { type: 'boolean' },
	IntegrationsEnabled: { type: 'boolean' },
	Active: { type: 'boolean' },
};

export const UPDATE_PROPERTY_FIELDS = Object.keys(UPDATE);

export function validateUpdateProperty(body: unknown): Violation[] {
	return checkShape(body, UPDATE, { patch: true });
}
