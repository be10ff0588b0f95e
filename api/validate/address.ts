import { checkShape, type Shape } from '../fields';
import { checkCountryCode } from '../rules/countryCode';
import type { Violation } from '../violation';

const ADD: Shape = {
	Friendly: { type: 'string' },
	Reference: { type: 'string' },
	Line1: { type: 'string', required: true },
	Line2: { type: 'string' },
	City: { type: 'string', required: true },
	Region: { type: 'string' },
	CountryCode: { type: 'string', required: true, check: checkCountryCode },
	PostalCode: { type: 'string' },
};

export const ADDRESS_INPUT_FIELDS = Object.keys(ADD);

export function validateAddAddress(body: unknown): Violation[] {
	return checkShape(body, ADD);
}
