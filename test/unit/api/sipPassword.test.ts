import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	SIP_PASSWORD_MIN_LENGTH,
	checkSipPassword,
	sipPasswordProblems,
} from '../../../api';

const LENGTH = 'needs at least 10 characters';
const LOWER = 'needs a lower-case letter';
const UPPER = 'needs an upper-case letter';
const DIGIT = 'needs a digit';
const SPECIAL = 'needs a special (non-alphanumeric) character';
const tripled = (c: string) => `has "${c}" three times in a row`;

describe('SIP passwords: 10+ characters, lower, upper, digit, special, no character three times in a row', () => {
	it('the minimum is 10', () => {
		expect(SIP_PASSWORD_MIN_LENGTH).toBe(10);
	});

	it.each([
		['10 characters', 'Abcdefgh1!', []],
		['9 characters', 'Abcdefg1!', [LENGTH]],
		['two in a row is fine', 'Aabbccdd1!', []],
		['three in a row', 'Aaaabcde1!', [tripled('a')]],
		['three upper in a row', 'AAAbcdef1!', [tripled('A')]],
		['three digits in a row', 'Abcdefg111!', [tripled('1')]],
		['three specials in a row', 'Abcdefg1!!!', [tripled('!')]],
		['three at the very end', 'Abcdefg1!zzz', [tripled('z')]],
		['Aa A is not a repeat (case differs)', 'AaAaAaAa1!', []],
		['no lower-case', 'ABCDEFGH1!', [LOWER]],
		['no upper-case', 'abcdefgh1!', [UPPER]],
		['no digit', 'Abcdefghi!', [DIGIT]],
		['no special', 'Abcdefghi1', [SPECIAL]],
		['any non-alphanumeric is special (-)', 'Abcdefgh1-', []],
		['a space is special', 'Abcdefgh1 ', []],
		['empty', '', [LENGTH, LOWER, UPPER, DIGIT, SPECIAL]],
		['9 code points with an emoji (10 UTF-16 units)', 'Abcdefg1😀', [LENGTH]],
		['10 code points with an emoji', 'Abcdefgh1😀', []],
		['three emoji in a row', 'Abcdefg1😀😀😀', [tripled('😀')]],
		['everything wrong at once', 'aaa', [LENGTH, UPPER, DIGIT, SPECIAL, tripled('a')]],
	])('%s', (_label, password, problems) => {
		expect(sipPasswordProblems(password)).toEqual(problems);
		const v = checkSipPassword('SipTrunkCredentials.Password', password);
		if (problems.length === 0) expect(v).toBeUndefined();
		else {
			expect(v).toMatchObject({
				FieldName: 'SipTrunkCredentials.Password',
				ErrorCode: ErrorCodes.InvalidPassword,
			});
			for (const p of problems) expect(v?.Message).toContain(p);
		}
	});
});
