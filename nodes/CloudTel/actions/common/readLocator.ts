import type { IExecuteFunctions } from 'n8n-workflow';

/** The value of a resource locator, or of a plain string parameter mapped onto it. */
export function readLocator(ctx: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return typeof value === 'string' ? value.trim() : String(value ?? '');
}
