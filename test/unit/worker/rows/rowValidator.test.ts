import { describe, expect, it } from 'vitest';
import {
	getCountries,
	getCountryCallingCode,
	getExampleNumber,
	parsePhoneNumberFromString,
	type CountryCode,
} from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { NumberSet } from '../../../../worker/src/rows/numberSet';
import { PhoneNormalizer } from '../../../../worker/src/rows/phoneNormalizer';
import { RowValidator } from '../../../../worker/src/rows/rowValidator';
import { settleAnswer } from '../../../../worker/src/campaign/settleAnswer';

describe('phone normalisation', () => {
	it('gives the same answer on the E.164 fast path as the full parse, in every country', () => {
		const phones = new PhoneNormalizer();
		for (const country of getCountries()) {
			const example = getExampleNumber(country as CountryCode, examples);
			if (!example) continue;
			for (const e164 of [example.number, example.number.slice(0, -1), example.number + '1']) {
				const full = parsePhoneNumberFromString(e164);
				const expected = full && full.isValid() ? full.number : undefined;
				const got = phones.normalize(e164);
				expect('e164' in got ? got.e164 : undefined, `${country} ${e164}`).toBe(expected);
			}
		}
	});
	it('gives the same answer as the full parse for random digits after every calling code, national prefixes written in included', () => {
		const phones = new PhoneNormalizer();
		let seed = 42;
		const digit = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) % 10).toString();
		let compared = 0;
		let valid = 0;
		for (const country of getCountries()) {
			const code = getCountryCallingCode(country as CountryCode);
			const example = getExampleNumber(country as CountryCode, examples);
			const inputs: string[] = [];
			for (let i = 0; i < 200; i++) {
				const length = 4 + (i % 11);
				let digits = '';
				for (let d = 0; d < length; d++) digits += digit();
				inputs.push(`+${code}${digits}`);
			}
			// Valid numbers with their trunk prefix kept after the calling code (+61 0491 ...),
			// which the full parse forgives: the shortcut for invalid numbers must not refuse them.
			if (example)
				inputs.push(
					`+${code}0${example.nationalNumber}`,
					`+${code}1${example.nationalNumber}`,
					`+${code}8${example.nationalNumber}`,
				);
			for (const e164 of inputs) {
				const full = parsePhoneNumberFromString(e164);
				const expected = full && full.isValid() ? full.number : undefined;
				const got = phones.normalize(e164);
				expect('e164' in got ? got.e164 : undefined, `${country} ${e164}`).toBe(expected);
				compared++;
				if (expected) valid++;
			}
		}
		expect(compared).toBeGreaterThan(40_000);
		expect(valid).toBeGreaterThan(100);
	});

	it('gives the same answer on the national fast path as the full parse, in every country', () => {
		let compared = 0;
		for (const country of getCountries()) {
			const phones = new PhoneNormalizer(country);
			const example = getExampleNumber(country as CountryCode, examples);
			if (!example) continue;
			const national = `0${example.nationalNumber}`;
			for (const raw of [
				national,
				national.slice(0, -1),
				national + '1',
				`${national.slice(0, 4)} ${national.slice(4)}`,
				`00${example.nationalNumber}`,
			]) {
				const full = parsePhoneNumberFromString(raw, country as CountryCode);
				const expected = full && full.isValid() ? full.number : undefined;
				const got = phones.normalize(raw);
				expect('e164' in got ? got.e164 : undefined, `${country} ${raw}`).toBe(expected);
				compared++;
			}
		}
		// Fixed lines, and AU's carrier-selection prefix 1831, which the fast path must leave alone.
		const fixed: Array<[string, string]> = [
			['AU', '02 9374 4000'],
			['AU', '0183 1291 570 156'],
			['GB', '020 7946 0958'],
			['DE', '030 1234567'],
			['FR', '01 23 45 67 89'],
			['NZ', '09 123 4567'],
		];
		for (const [country, raw] of fixed) {
			const full = parsePhoneNumberFromString(raw, country as CountryCode);
			const got = new PhoneNormalizer(country).normalize(raw);
			expect('e164' in got ? got.e164 : undefined, `${country} ${raw}`).toBe(
				full && full.isValid() ? full.number : undefined,
			);
		}
		expect(compared).toBeGreaterThan(1000);
	});

	it('reads national formats with --default-country and says why a number fails', () => {
		const au = new PhoneNormalizer('au');
		expect(au.normalize('0491 570 156')).toEqual({ e164: '+61491570156', country: 'AU' });
		expect(au.normalize('(04) 9157-0156')).toEqual({ e164: '+61491570156', country: 'AU' });
		expect(au.normalize('+61 491 570 156')).toEqual({ e164: '+61491570156', country: 'AU' });
		expect(au.normalize('12345')).toEqual({
			error: '"12345" is not a valid phone number for AU: not in a range allocated in AU',
		});
		expect(new PhoneNormalizer().normalize('0491 570 156')).toEqual({
			error: expect.stringMatching(/no --default-country/),
		});
		expect(() => new PhoneNormalizer('XX')).toThrow(/two-letter/);
	});
});

describe('row validation', () => {
	const rules = {
		campaign: 'c1',
		header: ['Phone', 'Name', 'Zone'],
		toIndex: 0,
		text: 'Hi {{Name}}',
		defaultCountry: 'AU',
		wantText: true,
	};
	it('accepts a good row with its E.164 number, text and segments', () => {
		const v = new RowValidator(rules).validate(
			{ line: 2, fields: ['0491570156', 'Ann', ''] },
			1_700_000_000,
		);
		expect(v).toEqual({
			line: 2,
			ok: true,
			to: '+61491570156',
			text: 'Hi Ann',
			segments: 1,
			timeZone: undefined,
		});
	});
	it('names the problem of each bad row', () => {
		const r = new RowValidator({ ...rules, timeZoneIndex: 2 });
		const codes = [
			r.validate({ line: 3, fields: ['0491570156', 'Ann'] }, 0),
			r.validate({ line: 4, fields: ['nope', 'Ann', 'UTC'] }, 0),
			r.validate({ line: 5, fields: ['0491570156', ' ', 'UTC'] }, 0),
			r.validate({ line: 6, fields: ['0491570156', 'Ann', 'Nowhere/Land'] }, 0),
			r.validate({ line: 7, fields: ['0491570156', 'x'.repeat(1601), 'UTC'] }, 0),
			r.validate({ line: 8, fields: ['0491570156', 'Ann\u0000', 'UTC'] }, 0),
			r.validate({ line: 9, fields: ['0491570156', '\uD83D', 'UTC'] }, 0),
		].map((v) => (v.ok ? 'ok' : v.code));
		expect(codes).toEqual([
			'FIELD_COUNT',
			'INVALID_NUMBER',
			'EMPTY_VALUE',
			'INVALID_TIME_ZONE',
			'INVALID_TEXT_LENGTH',
			'INVALID_CHARACTER',
			'INVALID_CHARACTER',
		]);
	});
	it('counts segments with api/', () => {
		const v = new RowValidator(rules).validate(
			{ line: 2, fields: ['0491570156', 'ж'.repeat(80), ''] },
			0,
		);
		expect(v.ok && v.segments).toBe(2);
	});
});

describe('number set', () => {
	it('finds duplicates across growth', () => {
		const s = new NumberSet(4);
		for (let i = 0; i < 10_000; i++)
			expect(s.add(`+614915${String(i).padStart(5, '0')}`)).toBe(true);
		expect(s.add('+61491500042')).toBe(false);
		expect(s.has('+61491599999')).toBe(false);
		expect(s.size).toBe(10_000);
	});

	it('keeps every number through many growths of its tables: E.164 of 8 to 15 digits, near neighbours, none lost or invented', () => {
		const s = new NumberSet();
		const numbers: string[] = [];
		let seed = 11;
		const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
		for (let i = 0; i < 300_000; i++) {
			const digits = 8 + (i % 8);
			let n = String(1 + Math.floor(rnd() * 9));
			while (n.length < digits) n += String(Math.floor(rnd() * 10));
			numbers.push(`+${n}`);
		}
		// Consecutive numbers too: a list of a block of mobiles.
		for (let i = 0; i < 50_000; i++) numbers.push(`+61491${String(i).padStart(6, '0')}`);
		const distinct = new Set(numbers);
		const added = numbers.filter((n) => s.add(n)).length;
		expect(added).toBe(distinct.size);
		expect(s.size).toBe(distinct.size);
		for (const n of distinct) expect(s.has(n)).toBe(true);
		for (const n of distinct) expect(s.add(n)).toBe(false);
		expect(s.has('+61491050000')).toBe(false);
		expect(s.has('+999999999999999')).toBe(distinct.has('+999999999999999'));
		expect(s.size).toBe(distinct.size);
	});
});

describe('batch answers', () => {
	const msg = (id: string, ext: string) => ({
		MessageSid: id,
		AccountSid: 'a',
		PropertySid: 'p',
		From: 'x',
		To: '+1',
		Text: 't',
		ExternalId: ext,
	});
	it('pairs elements with rows in order: accepted and rejected', () => {
		const rows = settleAnswer(
			'c',
			[2, 3],
			[
				msg('m1', 'c:2'),
				{
					ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
					Message: 'To is bad.',
					Errors: [{ FieldName: 'To' }],
				},
			],
		);
		expect(rows).toEqual([
			{ line: 2, status: 'accepted', messageSid: 'm1' },
			{
				line: 3,
				status: 'rejected',
				errorCode: 'INVALID_PHONENUMBER_FORMAT',
				message: 'To is bad.',
			},
		]);
	});
	it('matches by ExternalId when the answer is out of step, and marks the rest uncertain', () => {
		const rows = settleAnswer('c', [2, 3, 4], [msg('m4', 'c:4'), msg('m2', 'c:2')]);
		expect(rows.map((r) => r.status)).toEqual(['accepted', 'uncertain', 'accepted']);
		expect(rows[0].messageSid).toBe('m2');
	});
});
