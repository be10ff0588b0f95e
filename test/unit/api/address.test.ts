import { describe, expect, it } from 'vitest';
import {
	ADDRESS_INPUT_FIELDS,
	ErrorCodes,
	checkCountryCode,
	validateAddAddress,
} from '../../../api';
import { pairs } from './helpers';

const ADDRESS = { Line1: '1 George St', City: 'Sydney', CountryCode: 'AU' };

describe('add address: Line1, City and a two-letter CountryCode', () => {
	it('takes exactly the input fields of the Address table', () => {
		expect([...ADDRESS_INPUT_FIELDS].sort()).toEqual([
			'City',
			'CountryCode',
			'Friendly',
			'Line1',
			'Line2',
			'PostalCode',
			'Reference',
			'Region',
		]);
	});

	it('accepts the three required fields, and all eight', () => {
		expect(validateAddAddress(ADDRESS)).toEqual([]);
		expect(
			validateAddAddress({
				...ADDRESS,
				Friendly: 'HQ',
				Reference: 'r-1',
				Line2: 'Level 3',
				Region: 'NSW',
				PostalCode: '2000',
			}),
		).toEqual([]);
	});

	it('reports every missing field at once', () => {
		expect(pairs(validateAddAddress({}))).toEqual([
			'City FIELD_REQUIRED',
			'CountryCode FIELD_REQUIRED',
			'Line1 FIELD_REQUIRED',
		]);
		expect(pairs(validateAddAddress({ Line1: ' ', City: '', CountryCode: null }))).toEqual([
			'City FIELD_REQUIRED',
			'CountryCode FIELD_REQUIRED',
			'Line1 FIELD_REQUIRED',
		]);
	});

	it.each([
		['AU', true],
		['NZ', true],
		['au', false],
		['Au', false],
		['A', false],
		['AUS', false],
		['A1', false],
		[' AU', false],
		['ÀU', false],
	])('CountryCode %j -> %s', (code, ok) => {
		const v = checkCountryCode('CountryCode', code);
		if (ok) expect(v).toBeUndefined();
		else
			expect(v).toMatchObject({
				FieldName: 'CountryCode',
				ErrorCode: ErrorCodes.InvalidCountryCode,
			});
		expect(pairs(validateAddAddress({ ...ADDRESS, CountryCode: code }))).toEqual(
			ok ? [] : ['CountryCode INVALID_COUNTRY_CODE'],
		);
	});

	it('refuses wrong JSON types on every field, all at once', () => {
		const body = {
			Line1: 1,
			City: ['Sydney'],
			CountryCode: 61,
			Friendly: true,
			Reference: {},
			Line2: 2,
			Region: [],
			PostalCode: 2000,
		};
		expect(pairs(validateAddAddress(body))).toEqual(
			ADDRESS_INPUT_FIELDS.map((f) => `${f} INVALID_TYPE`).sort(),
		);
	});

	it.each([[null], [[ADDRESS]], ['1 George St']])(
		'a body that is not an object (%j) is one INVALID_TYPE',
		(body) => {
			expect(pairs(validateAddAddress(body))).toEqual([' INVALID_TYPE']);
		},
	);
});
