import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	MERGE_PATCH_CONTENT_TYPE,
	applyMergePatch,
	isMergePatchContentType,
	validateUpdateOnlineLogin,
	validateUpdateProperty,
} from '../../../api';
import { pairs } from './helpers';

describe('merge patch validation: absent unchanged, null and unknown fields refused', () => {
	const VALIDATORS = [
		['update online login', validateUpdateOnlineLogin, 'Enabled', true],
		['update property', validateUpdateProperty, 'SmsEnabled', true],
	] as const;

	describe.each(VALIDATORS)('%s', (_label, validate, field, value) => {
		it('an empty patch changes nothing and is valid', () => {
			expect(validate({})).toEqual([]);
		});

		it('a known field alone is valid', () => {
			expect(validate({ [field]: value })).toEqual([]);
		});

		it('null is NULL_NOT_ALLOWED on that field', () => {
			expect(pairs(validate({ [field]: null }))).toEqual([`${field} NULL_NOT_ALLOWED`]);
		});

		it.each([
			'Unknown',
			'enabled',
			'OnlineLoginSid',
			'PropertySid',
			'Created',
			'toString',
			'constructor',
			'hasOwnProperty',
			'valueOf',
		])('unknown field %s is UNKNOWN_FIELD', (unknown) => {
			expect(pairs(validate({ [field]: value, [unknown]: 1 }))).toEqual([
				`${unknown} UNKNOWN_FIELD`,
			]);
		});

		it('a JSON __proto__ key is an unknown field too', () => {
			expect(pairs(validate(JSON.parse('{"__proto__": {"Admin": true}}')))).toEqual([
				'__proto__ UNKNOWN_FIELD',
			]);
		});

		it('an unknown null is reported once, as unknown', () => {
			expect(pairs(validate({ Nope: null }))).toEqual(['Nope UNKNOWN_FIELD']);
		});

		it.each([[null], [[]], ['{}'], [1]])(
			'a body that is not an object (%j) is INVALID_TYPE',
			(body) => {
				expect(pairs(validate(body))).toEqual([' INVALID_TYPE']);
			},
		);
	});

	it('nulls and unknown fields are reported together with every other violation', () => {
		expect(
			pairs(
				validateUpdateProperty({
					Name: null,
					Active: null,
					TimeZone: 'Mars',
					Colour: 'red',
					Size: null,
				}),
			),
		).toEqual([
			'Active NULL_NOT_ALLOWED',
			'Colour UNKNOWN_FIELD',
			'Name NULL_NOT_ALLOWED',
			'Size UNKNOWN_FIELD',
			'TimeZone INVALID_TIMEZONE',
		]);
	});
});

describe('applyMergePatch (RFC 7396)', () => {
	const login = {
		Email: 'a@example.com',
		Enabled: false,
		FirstName: 'Ada',
		Permissions: [{ AccountSid: 'x', Scopes: 'Manage' }],
	};

	it.each([
		['absent fields stay', {}, login],
		['a field present changes', { Enabled: true }, { ...login, Enabled: true }],
		['Permissions replaces the whole set', { Permissions: [] }, { ...login, Permissions: [] }],
		['a new field is added', { LastName: 'L' }, { ...login, LastName: 'L' }],
		[
			'null removes (RFC 7396; validators refuse it first)',
			{ FirstName: null },
			{ Email: 'a@example.com', Enabled: false, Permissions: login.Permissions },
		],
	])('%s', (_label, patch, expected) => {
		expect(applyMergePatch(login, patch)).toEqual(expected);
	});

	it('merges nested objects field by field and replaces arrays whole', () => {
		expect(applyMergePatch({ a: { b: 1, c: 2 }, d: [1, 2] }, { a: { c: 3 }, d: [9] })).toEqual({
			a: { b: 1, c: 3 },
			d: [9],
		});
	});

	it('a patch that is not an object replaces the target', () => {
		expect(applyMergePatch({ a: 1 }, [1])).toEqual([1]);
		expect(applyMergePatch({ a: 1 }, 'x')).toBe('x');
	});

	it('does not change the target in place', () => {
		const target = { a: { b: 1 } };
		applyMergePatch(target, { a: { b: 2 } });
		expect(target).toEqual({ a: { b: 1 } });
	});

	it('RFC 7396 appendix A examples', () => {
		expect(applyMergePatch({ a: 'b' }, { a: 'c' })).toEqual({ a: 'c' });
		expect(applyMergePatch({ a: 'b' }, { b: 'c' })).toEqual({ a: 'b', b: 'c' });
		expect(applyMergePatch({ a: 'b' }, { a: null })).toEqual({});
		expect(applyMergePatch({ a: 'b', b: 'c' }, { a: null })).toEqual({ b: 'c' });
		expect(applyMergePatch({ a: ['b'] }, { a: 'c' })).toEqual({ a: 'c' });
		expect(applyMergePatch({ a: 'c' }, { a: ['b'] })).toEqual({ a: ['b'] });
		expect(applyMergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } })).toEqual({
			a: { b: 'd' },
		});
		expect(applyMergePatch({ a: [{ b: 'c' }] }, { a: [1] })).toEqual({ a: [1] });
		expect(applyMergePatch(['a', 'b'], ['c', 'd'])).toEqual(['c', 'd']);
		expect(applyMergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
		expect(applyMergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
		expect(applyMergePatch([1, 2], { a: 'b', c: null })).toEqual({ a: 'b' });
		expect(applyMergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
	});

	it('property: every key not in a null-free flat patch keeps its value; every key in it takes the patch value', () => {
		const flat = fc.dictionary(
			fc.string({ maxLength: 5 }),
			fc.oneof(fc.integer(), fc.boolean(), fc.string()),
		);
		fc.assert(
			fc.property(flat, flat, (target, patch) => {
				const out = applyMergePatch(target, patch) as Record<string, unknown>;
				return Object.keys({ ...target, ...patch }).every(
					(k) => out[k] === (k in patch ? patch[k] : target[k]),
				);
			}),
		);
	});
});

describe('the merge-patch content type', () => {
	it('is application/merge-patch+json', () => {
		expect(MERGE_PATCH_CONTENT_TYPE).toBe('application/merge-patch+json');
	});

	it.each([
		['application/merge-patch+json', true],
		['application/merge-patch+json; charset=utf-8', true],
		['Application/Merge-Patch+JSON', true],
		['  application/merge-patch+json  ', true],
		['application/json', false],
		['application/json-patch+json', false],
		['application/merge-patch', false],
		['text/plain', false],
		['', false],
		[undefined, false],
	])('%j -> %s', (header, ok) => {
		expect(isMergePatchContentType(header)).toBe(ok);
	});
});
