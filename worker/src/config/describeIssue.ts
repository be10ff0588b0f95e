import type { z } from 'zod';
import { environmentFor } from './configEnvironment';
import { configPath } from './configPath';

/** What a schema type is called in a problem line, as a person writing YAML would say it. */
const EXPECTED: Record<string, string> = {
	string: 'text',
	number: 'a number',
	int: 'a whole number',
	boolean: 'true or false',
	object: 'a mapping of settings',
	array: 'a list',
};

/**
 * Settings whose value is a secret: a problem there names the path and what is wrong,
 * never the value (a digits-only password in YAML is a number, and was printed whole).
 */
export function isSecretPath(path: readonly PropertyKey[]): boolean {
	const at = path.map((p) => (typeof p === 'number' ? '#' : String(p))).join('.');
	return /^(provider\.authToken|server\.(secret|previousSecret|reportToken|apiToken)|smtp\.password|db|replies\.#\.actions\.#\.headers\..+|forward\.n8n\.(url|headers\..+)|events\.(url|headers\..+)|campaigns\.#\.events)$/.test(
		at,
	);
}

function kindOf(value: unknown, secret = false): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'a mapping';
	if (secret)
		return typeof value === 'string'
			? 'this text'
			: typeof value === 'number'
				? 'a number'
				: typeof value === 'boolean'
					? 'true or false'
					: typeof value;
	if (typeof value === 'string')
		return `text (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`;
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return String(value);
	return typeof value;
}

export function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
	let v = raw;
	for (const key of path) {
		if (typeof v !== 'object' || v === null) return undefined;
		v = (v as Record<PropertyKey, unknown>)[key];
	}
	return v;
}

function bound(
	issue: { origin?: string; inclusive?: boolean },
	limit: unknown,
	side: 'least' | 'most',
): string {
	const n = Number(limit);
	switch (issue.origin) {
		case 'string':
			return side === 'least'
				? n <= 1
					? 'must not be empty'
					: `must be at least ${n} characters`
				: `must be at most ${n} characters`;
		case 'array':
			return side === 'least' ? `must list at least ${n}` : `must list at most ${n}`;
		default:
			if (issue.inclusive === false)
				return side === 'least' ? `must be more than ${n}` : `must be less than ${n}`;
			return `must be ${side === 'least' ? 'at least' : 'at most'} ${n}`;
	}
}

/** Zod's own wording, as opposed to a message this schema gives. */
const ZOD_WORDING = /^(Invalid|Too small|Too big|Expected)/;

/** One issue as the words a person can act on; a message of the schema's own is kept. */
function explain(issue: z.core.$ZodIssue, raw: unknown, path: readonly PropertyKey[]): string {
	if (!ZOD_WORDING.test(issue.message)) return issue.message;
	const value = valueAt(raw, path);
	const secret = isSecretPath(path);
	switch (issue.code) {
		case 'invalid_type':
			return `must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${kindOf(value, secret)}`;
		case 'too_small':
			return bound(issue, issue.minimum, 'least');
		case 'too_big':
			return bound(issue, issue.maximum, 'most');
		case 'invalid_value':
			return `must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, not ${kindOf(value, secret)}`;
		case 'invalid_union': {
			// One value or a list of them (oneOrMany): say what one value must be.
			const one = issue.errors[0]?.[0];
			if (one?.code === 'invalid_type')
				return `must be ${EXPECTED[one.expected] ?? one.expected} or a list of them, not ${kindOf(value, secret)}`;
			return `is not valid here (${kindOf(value, secret)})`;
		}
		default:
			return secret ? 'is not valid here' : issue.message;
	}
}

/**
 * A union's issues when the value is a list: those of the list's items, at their own
 * paths (`sender[1]`), since a list was plainly meant.
 */
function flatten(issue: z.core.$ZodIssue, raw: unknown): z.core.$ZodIssue[] {
	if (issue.code !== 'invalid_union' || !Array.isArray(valueAt(raw, issue.path))) return [issue];
	const listBranch = issue.errors.find(
		(branch) =>
			branch.length > 0 && !(branch[0].code === 'invalid_type' && branch[0].path.length === 0),
	);
	if (!listBranch) return [issue];
	return listBranch.flatMap((sub) =>
		flatten({ ...sub, path: [...issue.path, ...sub.path] } as z.core.$ZodIssue, raw),
	);
}

/**
 * Lines for zod's issues: one per path (the first issue found there, which is the one to
 * fix first), by config path, in the order found.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], raw: unknown): string[] {
	const lines = new Map<string, string>();
	for (const issue of issues.flatMap((i) => flatten(i, raw))) {
		if (issue.code === 'unrecognized_keys') {
			for (const k of issue.keys) {
				const at = configPath([...issue.path, k]);
				if (!lines.has(at)) lines.set(at, `${at}: is not a setting here (a typo?)`);
			}
			continue;
		}
		const at = configPath(issue.path) || '(top level)';
		if (lines.has(at)) continue;
		if (valueAt(raw, issue.path) === undefined && issue.code === 'invalid_type') {
			const variable = environmentFor(issue.path);
			lines.set(
				at,
				`${at}: is required${variable ? ` (here, or ${variable} in the environment)` : ''}`,
			);
		} else lines.set(at, `${at}: ${explain(issue, raw, issue.path)}`);
	}
	return [...lines.values()];
}
