import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, checkE164, isE164, isNorthAmerican } from '../../../api';

describe('E.164: + then 8 to 15 digits, the first not 0', () => {
	it.each([
		['+1234567', false, '7 digits: one short'],
		['+12345678', true, '8 digits: the shortest'],
		['+61412345678', true, 'an AU mobile'],
		['+123456789012345', true, '15 digits: the longest'],
		['+1234567890123456', false, '16 digits: one long'],
		['+01234567890', false, 'first digit 0'],
		['61412345678', false, 'no +'],
		['++61412345678', false, 'two +'],
		['+61 412 345 678', false, 'spaces'],
		['+61-412-345-678', false, 'dashes'],
		['+6141234567a', false, 'a letter'],
		['+', false, 'only +'],
		['', false, 'empty'],
		[' +61412345678', false, 'leading space'],
		['+61412345678 ', false, 'trailing space'],
		['+61412345678\n', false, 'trailing newline'],
		['+٦١٤١٢٣٤٥٦٧٨', false, 'non-ASCII digits'],
	])('%s -> %s (%s)', (value, valid) => {
		expect(isE164(value)).toBe(valid);
		const v = checkE164('To', value);
		if (valid) expect(v).toBeUndefined();
		else
			expect(v).toMatchObject({ FieldName: 'To', ErrorCode: ErrorCodes.InvalidPhoneNumberFormat });
	});

	it.each([12345678901, null, undefined, ['+61412345678'], { n: '+61412345678' }])(
		'a non-string (%j) is never E.164',
		(value) => {
			expect(isE164(value)).toBe(false);
		},
	);

	it('names the field and quotes the value in the message', () => {
		expect(checkE164('ForwardToSms', '0412')?.Message).toMatch(/ForwardToSms.*"0412"/);
	});

	it.each([
		['+12025550123', true],
		['+14165550123', true],
		['+61412345678', false],
		['+44207946000', false],
	])('%s is North American (+1): %s', (value, expected) => {
		expect(isNorthAmerican(value)).toBe(expected);
	});
});

describe('E.164 properties', () => {
	const digits = (min: number, max: number) =>
		fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
	const first = fc.constantFrom(...'123456789');

	it('any + , a digit 1-9 and 7..14 more digits validates', () => {
		fc.assert(
			fc.property(
				first,
				digits(7, 14),
				(d, rest) => isE164(`+${d}${rest}`) && checkE164('To', `+${d}${rest}`) === undefined,
			),
		);
	});

	it('a leading 0 digit never validates', () => {
		fc.assert(fc.property(digits(7, 14), (rest) => !isE164(`+0${rest}`)));
	});

	it('too few (1..7) or too many (16..30) digits never validate', () => {
		fc.assert(
			fc.property(
				first,
				fc.oneof(digits(0, 6), digits(15, 29)),
				(d, rest) => !isE164(`+${d}${rest}`),
			),
		);
	});

	it('without the + nothing validates', () => {
		fc.assert(fc.property(first, digits(7, 14), (d, rest) => !isE164(`${d}${rest}`)));
	});
});
