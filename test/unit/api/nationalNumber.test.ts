// The nodes read national numbers by a small table in api/; the worker by libphonenumber-js.
// Both must put the same calling code before the same digits.
import {
	parsePhoneNumberFromString,
	getCountries,
	getExampleNumber,
	type CountryCode,
} from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { isDialCountry, nationalToE164 } from '../../../api';

describe('nationalToE164', () => {
	it("gives each country's example mobile number, written nationally, the E.164 libphonenumber-js gives it", () => {
		const countries = getCountries() as CountryCode[];
		let compared = 0;
		for (const country of countries) {
			const example = getExampleNumber(country, examples);
			if (!example) continue;
			expect(isDialCountry(country), country).toBe(true);
			const national = example.formatNational();
			const theirs = parsePhoneNumberFromString(national, country)?.number;
			if (theirs === undefined) continue;
			// Those the table cannot read are left as written, for the number check to refuse.
			expect(nationalToE164(national, country), `${country} ${national}`).toBe(
				['AR', 'BY'].includes(country) ? national : theirs,
			);
			compared++;
		}
		expect(compared).toBeGreaterThan(200);
	});

	it('keeps an international number, drops its punctuation, and leaves what is not digits to the number check', () => {
		expect(nationalToE164('+44 7700 900123', 'AU')).toBe('+447700900123');
		expect(nationalToE164('0044 7700 900123', 'AU')).toBe('+447700900123');
		expect(nationalToE164('(212) 555-0100', 'US')).toBe('+12125550100');
		expect(nationalToE164('call me', 'AU')).toBe('call me');
		expect(isDialCountry('ZZ')).toBe(false);
	});
});
