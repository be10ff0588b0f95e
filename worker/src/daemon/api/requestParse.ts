import type { z } from 'zod';
import { invalid } from './apiError';

/** `['recipients', 12, 'phone']` as `recipients[12].phone`. */
function fieldOf(path: readonly PropertyKey[], part: string): string {
	let name = '';
	for (const key of path)
		name += typeof key === 'number' ? `[${key}]` : name === '' ? String(key) : `.${String(key)}`;
	return name === '' ? part : name;
}

/** A zod refusal as the API's problems, each naming its field (`part` when the fault is the whole of it). */
export function zodProblems(error: z.ZodError, part: string): { field: string; message: string }[] {
	return error.issues.flatMap((issue) =>
		// An unknown key is named by itself, not by the object holding it.
		issue.code === 'unrecognized_keys'
			? issue.keys.map((key) => ({
					field: fieldOf([...issue.path, key], part),
					message: `${fieldOf([...issue.path, key], part)} is not a field here`,
				}))
			: [
					{
						field: fieldOf(issue.path, part),
						message: `${fieldOf(issue.path, part)}: ${issue.message}`,
					},
				],
	);
}

/** A request's `part` (path, query, body) checked by its route's schema: its value, or a 400 `invalid` naming every problem. */
export function parse<T extends z.ZodType>(
	schema: T | undefined,
	value: unknown,
	part: string,
): z.output<T> {
	if (!schema) return value as z.output<T>;
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	throw invalid(zodProblems(result.error, part));
}
