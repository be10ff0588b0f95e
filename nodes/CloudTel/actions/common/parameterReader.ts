import type { IExecuteFunctions } from 'n8n-workflow';
import { compilePlainReads, DOUBT } from './plainFieldRead';

/** True when an n8n parameter value holds an expression anywhere inside it. */
function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (typeof value === 'object' && value !== null) return Object.values(value).some(hasExpression);
	return false;
}

/**
 * Reads a parameter for each item as n8n's getNodeParameter would, but cheaper: once when
 * it holds no expression (every item gets the same value, and each read costs n8n tens of
 * microseconds); straight from the item when its only expressions are plain field reads
 * such as `{{ $json.To }}` (see plainFieldRead); by n8n's evaluation otherwise, and
 * whenever a direct read is in doubt.
 */
export function parameterReader<T>(
	ctx: IExecuteFunctions,
	name: string,
	fallback: T,
): (itemIndex: number) => T {
	const raw = ctx.getNode().parameters[name];
	const evaluate = (itemIndex: number) => ctx.getNodeParameter(name, itemIndex, fallback) as T;
	if (hasExpression(raw)) {
		const direct = compilePlainReads(raw);
		if (!direct) return evaluate;
		const input = ctx.getInputData();
		return (itemIndex) => {
			const value = direct(input[itemIndex]?.json);
			return value === DOUBT ? evaluate(itemIndex) : (value as T);
		};
	}
	let value: T | undefined;
	let read = false;
	return () => {
		if (!read) {
			value = evaluate(0);
			read = true;
		}
		return value as T;
	};
}
