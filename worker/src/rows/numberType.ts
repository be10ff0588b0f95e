import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { planOf, splitCallingCode, validatorFor } from './numberingPlans';

interface TypePatterns {
	fixedLine: { lengths?: number[]; pattern: RegExp } | undefined;
	/** Undefined where the plan has the mobile pattern folded into the fixed line's: every fixed line may be a mobile. */
	mobile: { lengths?: number[]; pattern: RegExp } | undefined;
}

const patterns = new Map<CountryCode, TypePatterns | null>();

/**
 * The country an E.164 number belongs to, as libphonenumber-js reads it. Most numbers are
 * valid in the main country of their calling code, which settles it without the full parse.
 */
export function countryOf(e164: string): CountryCode | undefined {
	const split = splitCallingCode(e164);
	if (split) {
		const [main] = split.plans.countries;
		if (split.plans.countries.length === 1) return main;
		if (validatorFor(main)?.(split.national)) return main;
	}
	return parsePhoneNumberFromString(e164)?.country;
}

/**
 * Whether a valid number is a fixed line only (libphonenumber-js's FIXED_LINE, not
 * FIXED_LINE_OR_MOBILE, VoIP or unknown): it cannot take a text. The country's two
 * patterns are compiled once; libphonenumber-js's getType builds its metadata anew each call.
 */
export function isFixedLineOnly(country: CountryCode, national: string): boolean {
	const p = typePatterns(country);
	if (!p?.fixedLine || !matches(p.fixedLine, national)) return false;
	return p.mobile !== undefined && !matches(p.mobile, national);
}

/** The national number of an E.164 number in `country`. */
export function nationalOf(e164: string, country: CountryCode): string | undefined {
	const code = planOf(country)?.callingCode();
	return code === undefined ? undefined : e164.slice(1 + code.length);
}

/** A country's name as people read it: `United Kingdom (GB)`. */
export function countryName(country: string): string {
	try {
		const name = new Intl.DisplayNames(['en'], { type: 'region' }).of(country);
		return name && name !== country ? `${name} (${country})` : country;
	} catch {
		return country;
	}
}

function matches(t: { lengths?: number[]; pattern: RegExp }, national: string): boolean {
	return (!t.lengths || t.lengths.includes(national.length)) && t.pattern.test(national);
}

function typePatterns(country: CountryCode): TypePatterns | undefined {
	let p = patterns.get(country);
	if (p === undefined) {
		p = compileTypes(country);
		patterns.set(country, p);
	}
	return p ?? undefined;
}

function compileTypes(country: CountryCode): TypePatterns | null {
	const plan = planOf(country);
	if (!plan || !plan.hasTypes()) return null;
	const one = (name: string) => {
		const t = plan.type(name);
		const pattern = t?.pattern();
		return t && pattern
			? { lengths: t.possibleLengths(), pattern: new RegExp(`^(?:${pattern})$`) }
			: undefined;
	};
	return { fixedLine: one('FIXED_LINE'), mobile: one('MOBILE') };
}
