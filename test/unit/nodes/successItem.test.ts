// A sent or created item is built in one object (the input's fields, then the provider's
// with ISO twins of their Unix seconds), not as a copy spread into another: that copy was
// the dearest part of Send Batch's output. The item must be what the spread made, key for
// key and in the same order, which the reference below (the spread it replaced) checks.
import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { outcomes } from '../../../nodes/CloudTel/actions/common/failureItem';
import { withReadableDates } from '../../../nodes/CloudTel/actions/common/readableDates';

const UNIX_SECONDS = new Set(['Created', 'Schedule', 'Timestamp']);

/**
 * withReadableDates as it was before the item was built in one object, but for one thing:
 * an own `__proto__` key of an answer with a date was assigned, which dropped it (or set the
 * copy's prototype); now it stays a field, as it always did in an answer without a date.
 */
function reference(json: IDataObject): IDataObject {
	let found = false;
	for (const key of Object.keys(json))
		if (UNIX_SECONDS.has(key) && typeof json[key] === 'number') found = true;
	if (!found) return json;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		if (key === '__proto__')
			Object.defineProperty(out, key, {
				value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		else out[key] = value;
		if (
			UNIX_SECONDS.has(key) &&
			typeof value === 'number' &&
			Number.isFinite(value) &&
			!(`${key}Iso` in json)
		) {
			out[`${key}Iso`] = new Date(value * 1000).toISOString().replace('.000Z', 'Z');
		}
	}
	return out;
}

/** The success item as it was: `{ ...input fields less error, ...reference(json) }`. */
function referenceItem(input: IDataObject, json: IDataObject, withInput: boolean): IDataObject {
	const { error: _error, ...fields } = input;
	return { ...(withInput ? fields : {}), ...reference(json) };
}

function ctxFor(items: INodeExecutionData[], includeInputFields: boolean): IExecuteFunctions {
	return {
		getNode: () => ({
			id: 'n1',
			name: 'CloudTel',
			type: 'cloudTel',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getInputData: () => items,
		getNodeParameter: (name: string, _i: number, fallback: unknown) =>
			name === 'includeInputFields' ? includeInputFields : fallback,
	} as unknown as IExecuteFunctions;
}

const KEYS = [
	'To',
	'Text',
	'MessageSid',
	'Status',
	'Created',
	'CreatedIso',
	'Schedule',
	'ScheduleIso',
	'Timestamp',
	'TimestampIso',
	'error',
	'Sent',
	'ref',
	'__proto__',
	'toString',
	'',
];
// Seconds from before 1970 to past 2100, a few repeated (a batch shares its second), and
// numbers that are no date.
const seconds = fc.oneof(
	fc.integer({ min: -1e9, max: 5e9 }),
	fc.constantFrom(1764018000, 1764018001, 0, NaN, Infinity, 1.5),
);
const value = fc.oneof(seconds, fc.string(), fc.boolean(), fc.constant(null));
/** Objects as JSON.parse makes them: an own `__proto__` key is a field. */
const object = fc
	.array(fc.tuple(fc.constantFrom(...KEYS), value), { maxLength: 12 })
	.map((pairs) => JSON.parse(JSON.stringify(Object.fromEntries(pairs))) as IDataObject);
/** JSON drops NaN and Infinity: put them back, as an answer read otherwise could hold them. */
const withOddNumbers = fc
	.tuple(object, fc.constantFrom('Created', 'Schedule', 'Timestamp'), seconds)
	.map(([o, k, v]) => {
		o[k] = v;
		return o;
	});
const json = fc.oneof(object, withOddNumbers);

describe('an item sent or created', () => {
	it('is the input fields then the answer with its ISO dates, key for key and in order, as the spread made it', () => {
		fc.assert(
			fc.property(json, json, fc.boolean(), (input, answer, withInput) => {
				const items: INodeExecutionData[] = [{ json: structuredClone(input) }];
				const item = outcomes(ctxFor(items, withInput), 'Sent').success(structuredClone(answer), 0);
				const expected = referenceItem(input, answer, withInput);
				expect(Object.entries(item.json)).toEqual(Object.entries(expected));
				expect(Object.getPrototypeOf(item.json)).toBe(Object.prototype);
				expect(item.pairedItem).toEqual({ item: 0 });
				// The input item is left as it was.
				expect(Object.entries(items[0].json)).toEqual(Object.entries(input));
			}),
			{ numRuns: 2000 },
		);
	});

	it('without an object to fill, gets its ISO dates as before, and is the answer itself when it has none', () => {
		fc.assert(
			fc.property(json, (answer) => {
				const out = withReadableDates(answer);
				expect(Object.entries(out)).toEqual(Object.entries(reference(answer)));
				if (reference(answer) === answer) expect(out).toBe(answer);
			}),
			{ numRuns: 2000 },
		);
	});

	it('dates each of many answers by its own second, whatever came before', () => {
		const times = [1764018000, 1764018000, 1764018001, 0, 1764018000, -1];
		const out = times.map((Created) => withReadableDates({ Created }).CreatedIso);
		expect(out).toEqual([
			'2025-11-24T21:00:00Z',
			'2025-11-24T21:00:00Z',
			'2025-11-24T21:00:01Z',
			'1970-01-01T00:00:00Z',
			'2025-11-24T21:00:00Z',
			'1969-12-31T23:59:59Z',
		]);
	});
});
