/**
 * n8n evaluates each expression once per item and parameter, about half a millisecond
 * each: with `{{ $json.To }}` and `{{ $json.Text }}` that, not HTTP, sets the pace of a
 * batch. A parameter whose raw value is only a read of the item's own field can be read
 * straight from the item instead. Only that exact shape is recognised, and only an own
 * string property is taken from the item: anything else is left to n8n's evaluation.
 */
import { isSafeObjectProperty } from 'n8n-workflow';

/** What a direct read returns when it cannot be sure it matches n8n's evaluation. */
export const DOUBT: unique symbol = Symbol('doubt');

const IDENTIFIER = '[A-Za-z_$][A-Za-z0-9_$]*';
// No braces in a quoted key: n8n splits the template at the first `}}`.
const QUOTED = `"[^"\\\\\\n{}]*"|'[^'\\\\\\n{}]*'`;
const STEP = `\\.${IDENTIFIER}|\\[\\s*(?:${QUOTED})\\s*\\]`;
const PLAIN_READ = new RegExp(`^=\\{\\{\\s*\\$json((?:${STEP})+)\\s*\\}\\}$`);
const STEPS = new RegExp(`\\.(${IDENTIFIER})|\\[\\s*(?:"([^"]*)"|'([^']*)')\\s*\\]`, 'g');

/**
 * Property names n8n's expression sandbox refuses (n8n-workflow's unsafeObjectProperties
 * as of 2.40), and every name objects inherit: reading those is left to n8n, which may
 * refuse them or resolve them differently. Older n8n-workflow releases lack
 * isSafeObjectProperty; newer ones may refuse more, so the running one is asked too.
 */
const REFUSED = new Set([
	'__proto__',
	'prototype',
	'constructor',
	'getPrototypeOf',
	'setPrototypeOf',
	'getOwnPropertyDescriptor',
	'getOwnPropertyDescriptors',
	'defineProperty',
	'defineProperties',
	'mainModule',
	'binding',
	'_linkedBinding',
	'_load',
	'prepareStackTrace',
	'caller',
	'callee',
	'arguments',
	'getBuiltinModule',
	'dlopen',
	'execve',
	'loadEnvFile',
	...Object.getOwnPropertyNames(Object.prototype),
	...Object.getOwnPropertyNames(Function.prototype),
]);

function isReadableKey(key: string): boolean {
	if (REFUSED.has(key)) return false;
	return typeof isSafeObjectProperty !== 'function' || isSafeObjectProperty(key);
}

/** The path of `={{ $json.a.b }}`, `={{ $json["a"] }}` and the like; undefined for anything else. */
export function plainFieldPath(raw: unknown): string[] | undefined {
	if (typeof raw !== 'string') return undefined;
	const match = PLAIN_READ.exec(raw);
	if (!match) return undefined;
	const path = [...match[1].matchAll(STEPS)].map((m) => m[1] ?? m[2] ?? m[3]);
	return path.every(isReadableKey) ? path : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const proto = Object.getPrototypeOf(value);
	return proto === Object.prototype || proto === null;
}

/** The string at `path` in `json`, through own properties of plain objects only; DOUBT otherwise. */
export function readPlainField(json: unknown, path: string[]): string | typeof DOUBT {
	let value: unknown = json;
	for (const key of path) {
		if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return DOUBT;
		value = value[key];
	}
	return typeof value === 'string' ? value : DOUBT;
}

type Compiled = (json: unknown) => unknown;

/**
 * Compiles a raw parameter value (a string, or a collection holding strings) into a
 * direct reader, when every expression in it is a plain field read; undefined when any
 * is not. The reader returns DOUBT whenever one of its reads does.
 */
export function compilePlainReads(raw: unknown): Compiled | undefined {
	if (typeof raw === 'string' && raw.startsWith('=')) {
		const path = plainFieldPath(raw);
		return path && ((json) => readPlainField(json, path));
	}
	if (Array.isArray(raw)) {
		const parts = raw.map(compilePlainReads);
		if (parts.some((p) => p === undefined)) return undefined;
		return (json) => {
			const out: unknown[] = [];
			for (const part of parts as Compiled[]) {
				const value = part(json);
				if (value === DOUBT) return DOUBT;
				out.push(value);
			}
			return out;
		};
	}
	if (isPlainObject(raw)) {
		const parts = Object.entries(raw).map(
			([key, value]) => [key, compilePlainReads(value)] as const,
		);
		if (parts.some(([, p]) => p === undefined)) return undefined;
		return (json) => {
			const out: Record<string, unknown> = {};
			for (const [key, part] of parts as Array<readonly [string, Compiled]>) {
				const value = part(json);
				if (value === DOUBT) return DOUBT;
				out[key] = value;
			}
			return out;
		};
	}
	return () => raw;
}
