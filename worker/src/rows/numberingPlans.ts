import { Metadata } from 'libphonenumber-js/core';
import type { CountryCode } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';

/** Accessors libphonenumber-js's numbering plans have but its type definitions leave out. */
export interface PlanAccessors {
	callingCode(): string;
	nationalPrefix(): string | undefined;
	nationalPrefixForParsing(): string | undefined;
	nationalPrefixTransformRule(): string | undefined;
	nationalNumberPattern(): string;
	hasTypes(): boolean;
	type(type: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}

/** The order libphonenumber-js's getNumberType tries them in; any match makes a number valid. */
const TYPES = [
	'FIXED_LINE',
	'MOBILE',
	'PREMIUM_RATE',
	'TOLL_FREE',
	'SHARED_COST',
	'VOIP',
	'PERSONAL_NUMBER',
	'PAGER',
	'UAN',
	'VOICEMAIL',
];

export interface CallingCodePlans {
	/** The countries sharing the calling code, the main one (whose plan an E.164 number is judged by) first. */
	countries: CountryCode[];
	/** What the main plan takes a national prefix out with; null when nothing. */
	prefixForParsing: RegExp | null;
}

const all = new Metadata(metadata as unknown as ConstructorParameters<typeof Metadata>[0]);
const codes = (metadata as unknown as { country_calling_codes: Record<string, CountryCode[]> })
	.country_calling_codes;
const byCallingCode = new Map<string, CallingCodePlans | null>();
const validators = new Map<CountryCode, ((national: string) => boolean) | null>();

/** A country's numbering plan, through the accessors above; undefined when this release lacks them. */
export function planOf(country: CountryCode): PlanAccessors | undefined {
	try {
		all.selectNumberingPlan(country);
		const plan = all.numberingPlan as unknown as PlanAccessors;
		return typeof plan.nationalPrefixForParsing === 'function' && typeof plan.type === 'function'
			? plan
			: undefined;
	} catch {
		return undefined;
	}
}

/** The plans of a (geographic) calling code; undefined for an unknown one or a release without the accessors. */
export function callingCodePlans(code: string): CallingCodePlans | undefined {
	let plans = byCallingCode.get(code);
	if (plans === undefined) {
		const countries = codes[code];
		const main =
			Array.isArray(countries) && countries.length > 0 ? planOf(countries[0]) : undefined;
		const pattern = main?.nationalPrefixForParsing();
		plans = main
			? { countries, prefixForParsing: pattern ? new RegExp(`^(?:${pattern})`) : null }
			: null;
		byCallingCode.set(code, plans);
	}
	return plans ?? undefined;
}

/**
 * Whether a national number is valid in a country, as libphonenumber-js's isValidNumber
 * judges it (the plan's national pattern, then any number type whose lengths and pattern
 * fit), with each pattern compiled once: its own isValid builds its metadata objects and
 * walks them anew for every number. Undefined when this release lacks the accessors.
 */
export function validatorFor(country: CountryCode): ((national: string) => boolean) | undefined {
	let validator = validators.get(country);
	if (validator === undefined) {
		validator = compile(country);
		validators.set(country, validator);
	}
	return validator ?? undefined;
}

function compile(country: CountryCode): ((national: string) => boolean) | null {
	const plan = planOf(country);
	if (!plan) return null;
	try {
		const general = entirely(plan.nationalNumberPattern());
		if (!plan.hasTypes()) return (national) => general.test(national);
		const types: { lengths: number[] | undefined; pattern: RegExp }[] = [];
		for (const name of TYPES) {
			const type = plan.type(name);
			if (!type || !type.pattern()) continue;
			types.push({ lengths: type.possibleLengths(), pattern: entirely(type.pattern()) });
		}
		return (national) => {
			if (!general.test(national)) return false;
			for (const t of types)
				if ((!t.lengths || t.lengths.includes(national.length)) && t.pattern.test(national))
					return true;
			return false;
		};
	} catch {
		return null;
	}
}

function entirely(pattern: string): RegExp {
	return new RegExp(`^(?:${pattern})$`);
}

export interface CallingCodeSplit {
	/** The digits after the calling code. */
	national: string;
	plans: CallingCodePlans;
}

/** The calling code an E.164 number starts with, as libphonenumber-js reads it: the shortest that is one. */
export function splitCallingCode(e164: string): CallingCodeSplit | undefined {
	for (let length = 1; length <= 3; length++) {
		const code = e164.slice(1, 1 + length);
		const plans = callingCodePlans(code);
		if (plans) return { national: e164.slice(1 + length), plans };
		if (code in codes) return undefined;
	}
	return undefined;
}
