import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	LOGIN_PASSWORD_MIN_LENGTH,
	LOGIN_PASSWORD_SPECIALS,
	checkLoginPassword,
	loginPasswordProblems,
	validateCreateOnlineLogin,
	validateUpdateOnlineLogin,
} from '../../../api';
import { pairs } from './helpers';

const LENGTH = `at least ${LOGIN_PASSWORD_MIN_LENGTH} characters`;
const LOWER = 'a lower-case letter';
const UPPER = 'an upper-case letter';
const DIGIT = 'a digit';
const SPECIAL = `one of ${LOGIN_PASSWORD_SPECIALS}`;

describe('login passwords: 12+ characters, lower, upper, digit and one of !@#$%^&*()_+', () => {
	it('the rule is 12 characters and that special set', () => {
		expect(LOGIN_PASSWORD_MIN_LENGTH).toBe(12);
		expect(LOGIN_PASSWORD_SPECIALS).toBe('!@#$%^&*()_+');
	});

	it.each([
		['12 characters', 'Abcdefghij1!', []],
		['11 characters', 'Abcdefghi1!', [LENGTH]],
		['long', 'Correct-Horse-Battery-Staple-9!', []],
		['no lower-case', 'ABCDEFGHIJ1!', [LOWER]],
		['no upper-case', 'abcdefghij1!', [UPPER]],
		['no digit', 'Abcdefghijk!', [DIGIT]],
		['no special', 'Abcdefghijk1', [SPECIAL]],
		['a special outside the set only', 'Abcdefghij1-', [SPECIAL]],
		['a space is not a special', 'Abcdefghij1 ', [SPECIAL]],
		['empty', '', [LENGTH, LOWER, UPPER, DIGIT, SPECIAL]],
		['11 characters with an emoji (12 UTF-16 units)', 'Abcdefgh1!😀', [LENGTH]],
		['12 characters with an emoji', 'Abcdefghi1!😀', []],
	])('%s', (_label, password, problems) => {
		expect(loginPasswordProblems(password)).toEqual(problems);
		const v = checkLoginPassword('Password', password);
		if (problems.length === 0) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'Password', ErrorCode: ErrorCodes.InvalidPassword });
	});

	it.each([...LOGIN_PASSWORD_SPECIALS].map((c) => [c]))(
		'%s counts as the special character',
		(c) => {
			expect(loginPasswordProblems(`Abcdefghij1${c}`)).toEqual([]);
		},
	);

	it('one violation lists every missing class', () => {
		const v = checkLoginPassword('Password', 'abc');
		expect(v?.Message).toContain(LENGTH);
		expect(v?.Message).toContain(UPPER);
		expect(v?.Message).toContain(DIGIT);
		expect(v?.Message).toContain(SPECIAL);
		expect(v?.Message).not.toContain(LOWER);
	});

	it('applies on create and on update', () => {
		const create = {
			Email: 'a@example.com',
			Password: 'Abcdefghi1!',
			FirstName: 'A',
			LastName: 'B',
			Scopes: 'Manage',
		};
		expect(pairs(validateCreateOnlineLogin(create))).toEqual(['Password INVALID_PASSWORD']);
		expect(validateCreateOnlineLogin({ ...create, Password: 'Abcdefghij1!' })).toEqual([]);
		expect(pairs(validateUpdateOnlineLogin({ Password: 'Abcdefghi1!' }))).toEqual([
			'Password INVALID_PASSWORD',
		]);
		expect(validateUpdateOnlineLogin({ Password: 'Abcdefghij1!' })).toEqual([]);
	});
});
