// The proof that a direct read gives what n8n's own evaluation gives: every parameter is
// read both ways, by parameterReader (direct when it can be) and by n8n-workflow's
// Expression with the same arguments n8n-core's getNodeParameter passes it.
import fc from 'fast-check';
import type { IExecuteFunctions, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { parameterReader } from '../../../nodes/CloudTel/actions/common/parameterReader';
import { plainFieldPath } from '../../../nodes/CloudTel/actions/common/plainFieldRead';

const NODE = {
	id: 'n1',
	name: 'CloudTel',
	type: 'n8n-nodes-cloudtel.cloudTel',
	typeVersion: 1,
	position: [0, 0] as [number, number],
};
const nodeType = { description: { properties: [] } };
const nodeTypes = {
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
	getKnownTypes: () => ({}),
};

/** n8n's evaluation, and a context whose getNodeParameter is exactly that, counting calls. */
function n8nLike(parameters: INodeParameters, items: INodeExecutionData[]) {
	// Workflow replaces its nodes' parameters by those the node type declares: give it a copy.
	const node = { ...NODE, parameters: structuredClone(parameters) };
	const workflow = new Workflow({
		id: 'w1',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypes as never,
	});
	const evaluate = (name: string, itemIndex: number, fallback?: unknown) =>
		workflow.expression.getParameterValue(
			parameters[name] ?? (fallback as never),
			null,
			0,
			itemIndex,
			node.name,
			items,
			'manual',
			{},
		);
	let evaluations = 0;
	const ctx = {
		getNode: () => ({ ...NODE, parameters: structuredClone(parameters) }),
		getInputData: () => items,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			evaluations++;
			return evaluate(name, itemIndex, fallback);
		},
	} as unknown as IExecuteFunctions;
	return { ctx, evaluate, evaluations: () => evaluations };
}

const KEYS = [
	'To',
	'Text',
	'a',
	'b',
	'x_1',
	'$y',
	'with space',
	'dash-ed',
	'br}}ace',
	'toString',
	'constructor',
	'__proto__',
	'prototype',
	'mainModule',
	'hasOwnProperty',
	'length',
	'0',
	'',
];
const key = fc.constantFrom(...KEYS);
const leaf = fc.oneof(
	fc.string(),
	fc.string({ unit: 'binary' }),
	fc.constantFrom('', '=', '={{ 1 + 1 }}', '{{ $json.To }}', '+61412345678'),
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.string(), { maxLength: 2 }),
);
const json = fc.letrec((tie) => ({
	value: fc.oneof({ depthSize: 'small' }, leaf, tie('object')),
	object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
})).object as fc.Arbitrary<Record<string, unknown>>;

const space = fc.constantFrom('', ' ', '  ', '\n', '\t');
const keys = fc.array(key, { minLength: 1, maxLength: 3 });
/** One way of writing a path of keys: `.key` where it is an identifier, or `["key"]`, `[ 'key' ]`. */
const written = (path: string[]) =>
	fc
		.tuple(...path.map(() => fc.tuple(fc.boolean(), fc.constantFrom('"', "'"), space, space)))
		.map((steps) =>
			steps
				.map(([dot, q, s1, s2], i) =>
					dot && /^[A-Za-z_$][\w$]*$/.test(path[i])
						? `.${path[i]}`
						: `[${s1}${q}${path[i]}${q}${s2}]`,
				)
				.join(''),
		);
/** Plain reads, and near misses that must be evaluated: a method call, text around, other roots. */
const expressionFor = (p: string) =>
	fc.oneof(
		{ weight: 4, arbitrary: fc.tuple(space, space).map(([s1, s2]) => `={{${s1}$json${p}${s2}}}`) },
		fc
			.constantFrom(' x', '.toUpperCase()', ' + ""', '?.To', ' || "none"')
			.map((tail) => `={{ $json${p}${tail} }}`),
		fc
			.constantFrom('={{ $input.item.json', '={{ $("CloudTel").item.json')
			.map((head) => `${head}${p} }}`),
		fc.constantFrom(`Hi {{ $json${p} }}!`, `={{ $json${p} }}\n`, `={{ $json${p} }}{{ $json${p} }}`),
	);

/** Items, some of which hold a value (often a string) at the path. */
function plant(
	json: Record<string, unknown>,
	path: string[],
	value: unknown,
): Record<string, unknown> {
	const root = structuredClone(json);
	let at: Record<string, unknown> = root;
	path.slice(0, -1).forEach((k) => {
		// Own properties only: `__proto__` must become a key, never a way into Object.prototype.
		const own = Object.prototype.hasOwnProperty.call(at, k) ? at[k] : undefined;
		if (typeof own !== 'object' || own === null || Array.isArray(own))
			Object.defineProperty(at, k, {
				value: {},
				enumerable: true,
				writable: true,
				configurable: true,
			});
		at = at[k] as Record<string, unknown>;
	});
	Object.defineProperty(at, path[path.length - 1], {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
	return root;
}
const scenario = keys.chain((path) =>
	fc.tuple(
		fc.constant(path),
		written(path).chain(expressionFor),
		fc.array(
			fc.tuple(json, fc.option(fc.oneof({ weight: 3, arbitrary: fc.string() }, leaf), { freq: 3 })),
			{ minLength: 1, maxLength: 4 },
		),
	),
);

describe('plain field reads', () => {
	it('recognises the shapes the issue names', () => {
		expect(plainFieldPath('={{ $json.To }}')).toEqual(['To']);
		expect(plainFieldPath('={{ $json["To"] }}')).toEqual(['To']);
		expect(plainFieldPath("={{$json['a'].b}}")).toEqual(['a', 'b']);
		expect(plainFieldPath('={{ $json.a.b }}')).toEqual(['a', 'b']);
		for (const other of [
			'={{ $json.To }} ',
			'={{ $json.To.trim() }}',
			'={{ $json }}',
			'{{ $json.To }}',
			'={{ $json["a\\"b"] }}',
			'={{ $json.To }}{{ $json.Text }}',
		]) {
			expect(plainFieldPath(other), other).toBeUndefined();
		}
	});

	it('give exactly what n8n evaluates, for any item and any such parameter', () => {
		let direct = 0;
		fc.assert(
			fc.property(scenario, ([path, raw, objects]) => {
				const items = objects.map(([j, planted]) => ({
					json: (planted === null ? j : plant(j, path, planted)) as INodeExecutionData['json'],
				}));
				const { ctx, evaluate, evaluations } = n8nLike({ to: raw }, items);
				const read = parameterReader<unknown>(ctx, 'to', '');
				for (let i = 0; i < items.length; i++) {
					let expected: unknown;
					let failed: unknown;
					try {
						expected = evaluate('to', i, '');
					} catch (error) {
						failed = error;
					}
					if (failed) expect(() => read(i)).toThrow();
					else expect(read(i)).toEqual(expected);
				}
				direct += items.length - evaluations();
			}),
			{ numRuns: 1000 },
		);
		// Not a vacuous pass: many of those reads did skip the evaluation.
		expect(direct).toBeGreaterThan(150);
	});

	it('in a collection, read every plain field directly and evaluate when any is in doubt', () => {
		const items = [
			{ json: { id: 'e-1', uri: 'https://n8n.example.com/webhook/x' } },
			{ json: { id: 7, uri: 'https://n8n.example.com/webhook/y' } },
		];
		const options = {
			ExternalId: '={{ $json.id }}',
			DeliveryReceiptWebhookUri: '={{ $json["uri"] }}',
			DeliveryReceipt: true,
		};
		const { ctx, evaluate, evaluations } = n8nLike({ options }, items);
		const read = parameterReader<unknown>(ctx, 'options', {});
		expect(read(0)).toEqual(evaluate('options', 0));
		expect(evaluations()).toBe(0);
		// ExternalId 7 is a number: n8n's answer is taken, not a guess.
		expect(read(1)).toEqual(evaluate('options', 1));
		expect(evaluations()).toBe(1);
	});
});
