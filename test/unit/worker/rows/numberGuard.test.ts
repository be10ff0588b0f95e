import { describe, expect, it } from 'vitest';
import {
	getCountries,
	getCountryCallingCode,
	getExampleNumber,
	parsePhoneNumberFromString,
	type CountryCode,
} from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { PhoneNormalizer } from '../../../../worker/src/rows/phoneNormalizer';
import { RowValidator } from '../../../../worker/src/rows/rowValidator';
import { numberGuard, parseCountries } from '../../../../worker/src/rows/numberGuard';
import type { RowRules } from '../../../../worker/src/rows/rowRules';

const rules = (extra: Partial<RowRules> = {}): RowRules => ({
	campaign: 'c',
	header: ['Phone'],
	toIndex: 0,
	text: 'Hi',
	defaultCountry: 'AU',
	wantText: false,
	...extra,
});
const judge = (raw: string, extra: Partial<RowRules> = {}) =>
	new RowValidator(rules(extra)).validate({ line: 2, fields: [raw] }, 0);

describe('number guardrails', () => {
	it('refuses the landline 02 9374 4000 as NOT_MOBILE, naming its type, unless landlines are allowed', () => {
		expect(judge('02 9374 4000')).toEqual({
			line: 2,
			ok: false,
			to: '+61293744000',
			code: 'NOT_MOBILE',
			reason:
				'+61293744000 is a fixed-line number (FIXED_LINE) in AU: it cannot take a text (--allow-landlines sends to such numbers anyway)',
		});
		expect(judge('02 9374 4000', { allowLandlines: true })).toMatchObject({ ok: true });
		expect(judge('0491 570 156')).toMatchObject({ ok: true, to: '+61491570156' });
		// FIXED_LINE_OR_MOBILE (every US number): it may take a text.
		expect(judge('+1 201 555 0123')).toMatchObject({ ok: true });
	});

	it('refuses numbers of countries not allowed as COUNTRY_NOT_ALLOWED, naming the country', () => {
		const allowed = { countries: parseCountries('nz, AU') };
		expect(allowed.countries).toBe('AU,NZ');
		expect(judge('+64 21 123 4567', allowed)).toMatchObject({ ok: true });
		expect(judge('+44 7400 123456', allowed)).toMatchObject({
			ok: false,
			code: 'COUNTRY_NOT_ALLOWED',
			reason:
				'+447400123456 is a number of United Kingdom (GB), not of the allowed countries (--countries AU,NZ)',
		});
		expect(() => parseCountries('AU,Australia')).toThrow(
			/--countries: must be two-letter country codes .* \(got "AU,Australia"\)/,
		);
	});

	it('says why a number is invalid: too short, too long, or not in an allocated range', () => {
		const phones = new PhoneNormalizer('AU');
		expect(phones.normalize('+61 4915')).toEqual({
			error: '"+61 4915" is not a valid phone number: too short for AU',
		});
		expect(phones.normalize('+61 491 570 156 123 4')).toEqual({
			error: '"+61 491 570 156 123 4" is not a valid phone number: too long for AU',
		});
		expect(phones.normalize('+61 193 744 000')).toEqual({
			error: '"+61 193 744 000" is not a valid phone number: not in a range allocated in AU',
		});
	});

	it('finds the same fixed lines and countries as libphonenumber-js in every country', () => {
		const phones = new PhoneNormalizer();
		const guard = numberGuard({});
		let seed = 7;
		const digit = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) % 10).toString();
		let fixed = 0;
		let compared = 0;
		for (const country of getCountries()) {
			const code = getCountryCallingCode(country as CountryCode);
			const example = getExampleNumber(country as CountryCode, examples);
			const length = example ? example.nationalNumber.length : 8;
			for (let i = 0; i < 150; i++) {
				let national = '';
				for (let d = 0; d < length; d++) national += digit();
				const full = parsePhoneNumberFromString(`+${code}${national}`);
				if (!full || !full.isValid()) continue;
				const got = phones.normalize(full.number);
				if (!('e164' in got)) throw new Error(`${full.number} valid but not normalized`);
				if (got.country !== undefined) expect(got.country, full.number).toBe(full.country);
				const refusal = guard(got.e164, got.country);
				expect(refusal?.code, `${full.number} ${full.getType()}`).toBe(
					full.getType() === 'FIXED_LINE' ? 'NOT_MOBILE' : undefined,
				);
				if (refusal) fixed++;
				compared++;
			}
		}
		expect(compared).toBeGreaterThan(2000);
		expect(fixed).toBeGreaterThan(200);
	});
});
