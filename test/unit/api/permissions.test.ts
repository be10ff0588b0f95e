import { describe, expect, it } from 'vitest';
import {
	checkPermissionOwnership,
	checkPermissions,
	isSid,
	validateUpdateOnlineLogin,
	type Permission,
} from '../../../api';
import { ACCOUNT_SID, PROPERTY_SID, pairs } from './helpers';

const OTHER_SID = 'ffffffff-0000-4000-8000-000000000000';

describe('permissions: exactly one of AccountSid or PropertySid, plus Scopes', () => {
	it.each([
		['an AccountSid', [{ AccountSid: ACCOUNT_SID, Scopes: 'Manage' }], []],
		['a PropertySid', [{ PropertySid: PROPERTY_SID, Scopes: 'ManageSms,ReportingSms' }], []],
		['none at all (an empty set replaces all)', [], []],
		[
			'both Sids',
			[{ AccountSid: ACCOUNT_SID, PropertySid: PROPERTY_SID, Scopes: 'Manage' }],
			['Permissions[0] INVALID_PERMISSION'],
		],
		['neither Sid', [{ Scopes: 'Manage' }], ['Permissions[0] INVALID_PERMISSION']],
		[
			'null Sids count as absent',
			[{ AccountSid: null, PropertySid: null, Scopes: 'Manage' }],
			['Permissions[0] INVALID_PERMISSION'],
		],
		['no Scopes', [{ AccountSid: ACCOUNT_SID }], ['Permissions[0].Scopes FIELD_REQUIRED']],
		[
			'blank Scopes',
			[{ AccountSid: ACCOUNT_SID, Scopes: ' ' }],
			['Permissions[0].Scopes FIELD_REQUIRED'],
		],
		[
			'an unknown scope',
			[{ AccountSid: ACCOUNT_SID, Scopes: 'Manage,Root' }],
			['Permissions[0].Scopes INVALID_SCOPE'],
		],
		[
			'an upper-case Sid',
			[{ AccountSid: ACCOUNT_SID.toUpperCase(), Scopes: 'Manage' }],
			['Permissions[0].AccountSid INVALID_SID'],
		],
		[
			'a Sid that is not a UUID',
			[{ PropertySid: 'prop-1', Scopes: 'Manage' }],
			['Permissions[0].PropertySid INVALID_SID'],
		],
		[
			'an empty Sid',
			[{ PropertySid: '', Scopes: 'Manage' }],
			['Permissions[0].PropertySid INVALID_SID'],
		],
		[
			'a number for a Sid',
			[{ AccountSid: 5, Scopes: 'Manage' }],
			['Permissions[0].AccountSid INVALID_TYPE'],
		],
		[
			'an array for Scopes',
			[{ AccountSid: ACCOUNT_SID, Scopes: ['Manage'] }],
			['Permissions[0].Scopes INVALID_TYPE'],
		],
		['a string entry', ['Manage'], ['Permissions[0] INVALID_TYPE']],
		['an array entry', [[ACCOUNT_SID, 'Manage']], ['Permissions[0] INVALID_TYPE']],
		['a null entry', [null], ['Permissions[0] INVALID_TYPE']],
	])('%s', (_label, permissions, expected) => {
		expect(pairs(checkPermissions('Permissions', permissions))).toEqual(expected);
		expect(pairs(validateUpdateOnlineLogin({ Permissions: permissions }))).toEqual(expected);
	});

	it('reports every entry and every field of each entry, indexed', () => {
		const permissions = [
			{ AccountSid: ACCOUNT_SID, Scopes: 'Manage' },
			{ PropertySid: PROPERTY_SID, Scopes: 'Nope' },
			{ AccountSid: ACCOUNT_SID, PropertySid: 'BAD', Scopes: '' },
			7,
		];
		expect(pairs(validateUpdateOnlineLogin({ Permissions: permissions }))).toEqual([
			'Permissions[1].Scopes INVALID_SCOPE',
			'Permissions[2] INVALID_PERMISSION',
			'Permissions[2].PropertySid INVALID_SID',
			'Permissions[2].Scopes FIELD_REQUIRED',
			'Permissions[3] INVALID_TYPE',
		]);
	});

	it.each([[{ AccountSid: ACCOUNT_SID, Scopes: 'Manage' }], ['Manage'], [null]])(
		'Permissions that is not an array (%j) is INVALID_TYPE or NULL_NOT_ALLOWED',
		(value) => {
			const expected = value === null ? 'Permissions NULL_NOT_ALLOWED' : 'Permissions INVALID_TYPE';
			expect(pairs(validateUpdateOnlineLogin({ Permissions: value }))).toEqual([expected]);
		},
	);
});

describe("permission ownership: the Sids must be the caller's", () => {
	const ctx = { accountSid: ACCOUNT_SID, ownsProperty: (sid: string) => sid === PROPERTY_SID };

	it.each<[string, Permission[], string[]]>([
		['own account', [{ AccountSid: ACCOUNT_SID, Scopes: 'Manage' }], []],
		['own property', [{ PropertySid: PROPERTY_SID, Scopes: 'Manage' }], []],
		[
			'another account',
			[{ AccountSid: OTHER_SID, Scopes: 'Manage' }],
			['Permissions[0].AccountSid INVALID_PERMISSION'],
		],
		[
			'another property',
			[{ PropertySid: OTHER_SID, Scopes: 'Manage' }],
			['Permissions[0].PropertySid INVALID_PERMISSION'],
		],
		[
			'several, indexed',
			[
				{ PropertySid: PROPERTY_SID, Scopes: 'Manage' },
				{ AccountSid: OTHER_SID, Scopes: 'Manage' },
				{ PropertySid: OTHER_SID, Scopes: 'Manage' },
			],
			[
				'Permissions[1].AccountSid INVALID_PERMISSION',
				'Permissions[2].PropertySid INVALID_PERMISSION',
			],
		],
	])('%s', (_label, permissions, expected) => {
		expect(pairs(checkPermissionOwnership('Permissions', permissions, ctx))).toEqual(expected);
	});
});

describe('Sids are lower-case UUIDs', () => {
	it.each([
		[ACCOUNT_SID, true],
		['00000000-0000-0000-0000-000000000000', true],
		[ACCOUNT_SID.toUpperCase(), false],
		['0a1b2c3d00004000800000000000000a', false],
		[`{${ACCOUNT_SID}}`, false],
		['0a1b2c3d-0000-4000-8000-00000000000g', false],
		['', false],
		[42, false],
	])('%j -> %s', (value, ok) => {
		expect(isSid(value)).toBe(ok);
	});
});
