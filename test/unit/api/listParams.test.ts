import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, validateListOnlineLogins } from '../../../api';
import { pairs } from './helpers';

describe('list online logins: Results_Count 1..1000 (default 50), Results_Skip >= 0', () => {
	it('the default is 50 and the maximum 1000', () => {
		expect(DEFAULT_PAGE_SIZE).toBe(50);
		expect(MAX_PAGE_SIZE).toBe(1000);
		expect(validateListOnlineLogins({})).toEqual({
			violations: [],
			params: { Results_Count: 50, Results_Skip: 0 },
		});
	});

	it.each([
		[0, undefined],
		[1, 1],
		[1000, 1000],
		[1001, undefined],
		[-1, undefined],
		['0', undefined],
		['1', 1],
		['1000', 1000],
		['1001', undefined],
		[' 25 ', 25],
		['', 50],
		['1.5', undefined],
		[1.5, undefined],
		['1e3', undefined],
		['ten', undefined],
		['-5', undefined],
		['+5', undefined],
		[['10', '20'], 20],
	])('Results_Count %j', (count, expected) => {
		const { violations, params } = validateListOnlineLogins({ Results_Count: count });
		if (expected === undefined) {
			expect(pairs(violations)).toEqual(['Results_Count OUT_OF_RANGE']);
			expect(params.Results_Count).toBe(DEFAULT_PAGE_SIZE);
		} else {
			expect(violations).toEqual([]);
			expect(params.Results_Count).toBe(expected);
		}
	});

	it.each([
		[0, 0],
		[1, 1],
		[123456, 123456],
		['0', 0],
		['40', 40],
		['', 0],
		[-1, undefined],
		['-1', undefined],
		[0.5, undefined],
		['x', undefined],
	])('Results_Skip %j', (skip, expected) => {
		const { violations, params } = validateListOnlineLogins({ Results_Skip: skip });
		if (expected === undefined) {
			expect(pairs(violations)).toEqual(['Results_Skip OUT_OF_RANGE']);
			expect(params.Results_Skip).toBe(0);
		} else {
			expect(violations).toEqual([]);
			expect(params.Results_Skip).toBe(expected);
		}
	});

	it('reports both bad parameters at once', () => {
		expect(
			pairs(validateListOnlineLogins({ Results_Count: '1001', Results_Skip: '-1' }).violations),
		).toEqual(['Results_Count OUT_OF_RANGE', 'Results_Skip OUT_OF_RANGE']);
	});

	it('carries PageToken through when given, and drops an empty one', () => {
		expect(validateListOnlineLogins({ PageToken: 'opaque==', Results_Skip: '5' }).params).toEqual({
			Results_Count: 50,
			Results_Skip: 5,
			PageToken: 'opaque==',
		});
		expect(validateListOnlineLogins({ PageToken: '' }).params).not.toHaveProperty('PageToken');
	});

	it('reads URLSearchParams-style query objects', () => {
		const query = Object.fromEntries(
			new URLSearchParams('Results_Count=10&Results_Skip=20&PageToken=t'),
		);
		expect(validateListOnlineLogins(query)).toEqual({
			violations: [],
			params: { Results_Count: 10, Results_Skip: 20, PageToken: 't' },
		});
	});
});
