import { describe, expect, it } from 'vitest';
import { ErrorCodes, checkDomain, checkEmail, isDomainName, isEmail } from '../../../api';

describe('e-mail addresses', () => {
	it.each([
		['ops@example.com', true],
		['first.last+tag@mail.example.co.uk', true],
		["o'brien@example.ie", true],
		['UPPER@EXAMPLE.COM', true],
		['a@b.co', true],
		['x@xn--80ak6aa92e.com', true],
		[`${'a'.repeat(64)}@example.com`, true],
		[`${'a'.repeat(65)}@example.com`, false],
		['', false],
		['plain', false],
		['@example.com', false],
		['ops@', false],
		['ops@example', false],
		['ops@example.c', false],
		['ops@example.123', false],
		['ops@@example.com', false],
		['ops@exa mple.com', false],
		['o ps@example.com', false],
		['.ops@example.com', false],
		['ops.@example.com', false],
		['o..ps@example.com', false],
		['ops@-example.com', false],
		['ops@example-.com', false],
		['ops@example..com', false],
		['"quoted"@example.com', false],
		['ops@example.com.', false],
	])('%j -> %s', (value, ok) => {
		expect(isEmail(value)).toBe(ok);
		const v = checkEmail('Email', value);
		if (ok) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'Email', ErrorCode: ErrorCodes.InvalidEmail });
	});

	it('is at most 254 characters', () => {
		const at = (n: number) =>
			`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(n)}.com`;
		expect(at(57)).toHaveLength(254);
		expect(isEmail(at(57))).toBe(true);
		expect(isEmail(at(58))).toBe(false);
	});

	it('a non-string is never an e-mail', () => {
		expect(isEmail(undefined)).toBe(false);
		expect(isEmail(['ops@example.com'])).toBe(false);
	});
});

describe('domain names (MainDomain)', () => {
	it.each([
		['example.com', true],
		['sub.example.com.au', true],
		['a-b.example', true],
		['xn--bcher-kva.example', true],
		[`${'a'.repeat(63)}.com`, true],
		[`${'a'.repeat(64)}.com`, false],
		['localhost', false],
		['example', false],
		['-example.com', false],
		['example-.com', false],
		['exa_mple.com', false],
		['example.c', false],
		['example.123', false],
		['192.168.0.1', false],
		['https://example.com', false],
		['example.com/path', false],
		['example..com', false],
		['', false],
	])('%j -> %s', (value, ok) => {
		expect(isDomainName(value)).toBe(ok);
		const v = checkDomain('MainDomain', value);
		if (ok) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'MainDomain', ErrorCode: ErrorCodes.InvalidDomain });
	});

	it('is at most 253 characters', () => {
		const label = 'a'.repeat(61);
		const d253 = `${label}.${label}.${label}.${label}.abcde`;
		expect(d253.length).toBe(253);
		expect(isDomainName(d253)).toBe(true);
		expect(isDomainName(`a${d253}`)).toBe(false);
	});
});
