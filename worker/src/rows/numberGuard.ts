import {
	isSupportedCountry,
	parsePhoneNumberFromString,
	type CountryCode,
} from 'libphonenumber-js/max';
import { SettingError } from '../errors';
import { countryName, isFixedLineOnly, nationalOf } from './numberType';
import { RowErrors } from './rowErrors';

/** The guardrails judged on a row's number at import: allowed countries, numbers that can take a text. */
export interface NumberGuardRules {
	/** `--countries AU,NZ`: upper case, comma-separated, sorted; undefined for any country. */
	countries?: string;
	/** `--allow-landlines`: fixed-line-only numbers are sent too. */
	allowLandlines?: boolean;
}

export type NumberRefusal = { code: string; reason: string };

/** `AU, nz` as the spec keeps it (`AU,NZ`), each a country libphonenumber-js knows. */
export function parseCountries(value: string | readonly string[]): string {
	const list = (typeof value === 'string' ? value.split(',') : [...value])
		.map((c) => c.trim().toUpperCase())
		.filter((c) => c !== '');
	const bad = list.filter((c) => !/^[A-Z]{2}$/.test(c) || !isSupportedCountry(c));
	if (list.length === 0 || bad.length > 0)
		throw new SettingError(
			'countries',
			`must be two-letter country codes separated by commas, such as AU,NZ (got "${String(value)}")`,
		);
	return [...new Set(list)].sort().join(',');
}

/** Judges a normalized number against the rules; undefined when it may be sent. */
export function numberGuard(
	rules: NumberGuardRules,
): (e164: string, known?: CountryCode) => NumberRefusal | undefined {
	const allowed = rules.countries ? new Set(rules.countries.split(',')) : undefined;
	const landlines = rules.allowLandlines === true;
	return (e164, known) => {
		const country = known ?? parsePhoneNumberFromString(e164)?.country;
		if (allowed && (!country || !allowed.has(country)))
			return {
				code: RowErrors.CountryNotAllowed,
				reason: `${e164} is a number of ${country ? countryName(country) : 'no known country'}, not of the allowed countries (--countries ${[...allowed].join(',')})`,
			};
		if (landlines || !country) return undefined;
		const national = nationalOf(e164, country);
		if (national !== undefined && isFixedLineOnly(country, national))
			return {
				code: RowErrors.NotMobile,
				reason: `${e164} is a fixed-line number (FIXED_LINE) in ${country}: it cannot take a text (--allow-landlines sends to such numbers anyway)`,
			};
		return undefined;
	};
}
