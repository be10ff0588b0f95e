import type { INodePropertyOptions } from 'n8n-workflow';
import { SCOPES } from '../../../../api';

export const scopeOptions: INodePropertyOptions[] = SCOPES.map((scope) => ({ name: scope, value: scope }));

/** A multiOptions value, or a comma-separated string from an expression, as the wire's list. */
export function joinScopes(value: unknown): string {
	if (Array.isArray(value)) return value.map(String).join(',');
	return typeof value === 'string' ? value : '';
}
