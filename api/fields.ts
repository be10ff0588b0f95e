import { ErrorCodes } from './errorCodes';
import { violation, type Violation } from './violation';

export type FieldType = 'string' | 'boolean' | 'integer' | 'array' | 'object';

export interface FieldSpec {
	type: FieldType;
	/** Present and, for strings, not blank. */
	required?: boolean;
	/** Runs only when the value is present and of the right type. */
	check?: (
		name: string,
		value: never,
		body: Record<string, unknown>,
		context: ShapeContext,
	) => Violation | Violation[] | undefined;
}

export type Shape = Record<string, FieldSpec>;

/** What a field rule may need from outside the body: the clock, for Schedule. */
export interface ShapeContext {
	/** Unix seconds. */
	now: number;
}

export interface ShapeOptions {
	/** Merge patch: unknown fields and nulls are 400 (contract.md). */
	patch?: boolean;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

function hasType(value: unknown, type: FieldType): boolean {
	switch (type) {
		case 'string':
			return typeof value === 'string';
		case 'boolean':
			return typeof value === 'boolean';
		case 'integer':
			return typeof value === 'number' && Number.isSafeInteger(value);
		case 'array':
			return Array.isArray(value);
		case 'object':
			return isPlainObject(value);
	}
}

const ARTICLE: Record<FieldType, string> = {
	string: 'a string',
	boolean: 'true or false',
	integer: 'a whole number',
	array: 'an array',
	object: 'an object',
};

const ENTRIES = new WeakMap<Shape, Array<[string, FieldSpec]>>();

/** Shapes are module constants; listing their fields once keeps per-row checks allocation-free. */
function entriesOf(shape: Shape): Array<[string, FieldSpec]> {
	let entries = ENTRIES.get(shape);
	if (!entries) ENTRIES.set(shape, (entries = Object.entries(shape)));
	return entries;
}

/**
 * Checks a decoded JSON body against a shape: the body is an object, required fields are
 * there, every field has its type, and each field's own rule holds. Returns every
 * violation, not only the first.
 */
export function checkShape(
	body: unknown,
	shape: Shape,
	options: ShapeOptions = {},
	context: ShapeContext = { now: 0 },
): Violation[] {
	if (!isPlainObject(body)) {
		return [violation('', ErrorCodes.InvalidType, 'The request body must be a JSON object.')];
	}
	const out: Violation[] = [];
	for (const [name, spec] of entriesOf(shape)) {
		const value = body[name];
		if (value === null && options.patch) {
			out.push(
				violation(
					name,
					ErrorCodes.NullNotAllowed,
					`${name} cannot be null: no field can be removed.`,
				),
			);
			continue;
		}
		if (value === undefined || value === null) {
			if (spec.required)
				out.push(violation(name, ErrorCodes.FieldRequired, `${name} is required.`));
			continue;
		}
		if (!hasType(value, spec.type)) {
			out.push(violation(name, ErrorCodes.InvalidType, `${name} must be ${ARTICLE[spec.type]}.`));
			continue;
		}
		if (spec.required && spec.type === 'string' && (value as string).trim() === '') {
			out.push(
				violation(name, ErrorCodes.FieldRequired, `${name} is required and cannot be blank.`),
			);
			continue;
		}
		const found = spec.check?.(name, value as never, body, context);
		if (Array.isArray(found)) out.push(...found);
		else if (found) out.push(found);
	}
	if (options.patch) {
		for (const name of Object.keys(body)) {
			// Own keys only: `in` would let toString, constructor or __proto__ through.
			if (!Object.prototype.hasOwnProperty.call(shape, name))
				out.push(
					violation(name, ErrorCodes.UnknownField, `${name} is not a field of this resource.`),
				);
		}
	}
	return out;
}

/** For optional strings that, once given, may not be blank (a name, say). */
export function checkNotBlank(field: string, value: string): Violation | undefined {
	return value.trim() === ''
		? violation(field, ErrorCodes.FieldRequired, `${field} cannot be blank.`)
		: undefined;
}
