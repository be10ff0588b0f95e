import {
	PhoneNumber,
	isSupportedCountry,
	parsePhoneNumberFromString,
	type CountryCode,
} from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';
import { compilePhonePatternsOnce } from './compiledPatterns';
import { planOf, splitCallingCode, validatorFor, type CallingCodeSplit } from './numberingPlans';
import { SettingError } from '../errors';

compilePhonePatternsOnce();

/** `country` where the path that found the number valid knew it without more work (numberGuard.ts). */
export type Normalized = { e164: string; country?: CountryCode } | { error: string };

const PUNCTUATION = /[\s().\-\u00a0]/g;
const INTERNATIONAL = /^\+[1-9]\d{6,15}$/;
const NATIONAL = /^0\d{5,17}$/;
/**
 * Recent numbers only: repeats in a list mostly come together (a household, a block pasted
 * twice). A cache of 50,000 held on to every number for a while in every validator thread,
 * long enough to be promoted out of the young generation: on the million-row benchmark
 * list, nearly all numbers different, it cost ~30 MB of resident memory and saved no time.
 */
const CACHE_LIMIT = 1_000;

/**
 * Numbers to E.164 with libphonenumber-js's full metadata. Most lists already hold
 * E.164, and for those the full parse is most of the work: judging the digits after the
 * calling code against the main country's compiled plan gives the same answer in a
 * fraction of the time; national formats of countries with a plain 0 trunk prefix get the
 * same treatment. A number the fast paths do not accept takes the full parse, unless it
 * is plainly invalid (see invalidWithoutFullParse). Tests compare every path with the full
 * parse in every country.
 */
export class PhoneNormalizer {
	private readonly cache = new Map<string, Normalized>();
	readonly defaultCountry: CountryCode | undefined;
	private readonly national: NationalPrefix | undefined;

	constructor(defaultCountry?: string) {
		if (defaultCountry !== undefined && defaultCountry !== '') {
			const cc = defaultCountry.toUpperCase();
			if (!isSupportedCountry(cc))
				throw new SettingError(
					'defaultCountry',
					`must be a two-letter country code such as AU or GB (got "${defaultCountry}")`,
					`--default-country must be a two-letter country code such as AU or GB (got "${defaultCountry}")`,
				);
			this.defaultCountry = cc;
			this.national = plainNationalPrefix(cc);
		}
	}

	normalize(raw: string): Normalized {
		const hit = this.cache.get(raw);
		if (hit) return hit;
		const result = this.compute(raw);
		if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
		this.cache.set(raw, result);
		return result;
	}

	private compute(raw: string): Normalized {
		const trimmed = raw.trim();
		if (trimmed === '') return { error: 'the number is empty' };
		const compact = trimmed.replace(PUNCTUATION, '');
		if (INTERNATIONAL.test(compact)) {
			const split = splitCallingCode(compact);
			const fast = fastE164(compact, split);
			if (fast) return { e164: fast, country: split?.plans.countries[0] };
			if (split && invalidWithoutFullParse(split))
				return { error: `"${trimmed}" is not a valid phone number${whyInvalid(split)}` };
		} else if (
			this.national &&
			NATIONAL.test(compact) &&
			this.national.stripsOnlyTheZero(compact)
		) {
			const e164 = `+${this.national.callingCode}${compact.slice(1)}`;
			const split = splitCallingCode(e164);
			const fast = fastE164(e164, split);
			if (fast) return { e164: fast, country: split?.plans.countries[0] };
		}
		const parsed = parsePhoneNumberFromString(
			trimmed,
			this.defaultCountry ? { defaultCountry: this.defaultCountry } : undefined,
		);
		if (parsed && parsed.isValid()) return { e164: parsed.number, country: parsed.country };
		if (!parsed && !trimmed.startsWith('+') && !this.defaultCountry) {
			return {
				error: `"${trimmed}" is not in international format (+ and country code) and no --default-country was given`,
			};
		}
		const where =
			this.defaultCountry && !trimmed.startsWith('+') ? ` for ${this.defaultCountry}` : '';
		const split = parsed
			? splitCallingCode(`+${parsed.countryCallingCode}${parsed.nationalNumber}`)
			: undefined;
		return {
			error: `"${trimmed}" is not a valid phone number${where}${split ? whyInvalid(split) : ''}`,
		};
	}
}

interface NationalPrefix {
	callingCode: string;
	stripsOnlyTheZero(compact: string): boolean;
}

/**
 * The national fast path, for countries whose trunk prefix is a plain 0 with no rewrite
 * (AU, GB, DE, FR, NZ, ...): there "0" + national number is "+" + calling code + national
 * number, provided the country's prefix-for-parsing pattern takes just that 0 from this
 * input and captures nothing (AU's also knows carrier codes 1831/1832; then it is not
 * used). A number the fast path does not find valid still goes to the full parse.
 */
function plainNationalPrefix(country: CountryCode): NationalPrefix | undefined {
	const plan = planOf(country);
	// A libphonenumber-js without these accessors: every national number takes the full parse.
	if (!plan || plan.nationalPrefix() !== '0' || plan.nationalPrefixTransformRule())
		return undefined;
	const forParsing = new RegExp(`^(?:${plan.nationalPrefixForParsing() ?? '0'})`);
	return {
		callingCode: plan.callingCode(),
		stripsOnlyTheZero(compact) {
			const m = forParsing.exec(compact);
			return m !== null && m[0] === '0' && m.slice(1).every((group) => group === undefined);
		},
	};
}

/** Past this many countries on one calling code (+1 has 25), the full parse is cheaper. */
const MAX_COUNTRIES_TO_TRY = 3;

/**
 * An E.164 number the fast path found invalid, without the full parse: a list with one bad
 * number in eight spent half its parsing time proving them bad. The full parse reads the
 * same digits but may take a national prefix out of them (+61 0491 570 156 is valid), and
 * picks among the countries of the calling code (+61 is also CC and CX) where the fast path
 * used the main one. So the verdict is final only when the main plan takes nothing out and
 * no other country of the code finds the number valid. False, and the full parse, whenever
 * in doubt.
 */
function invalidWithoutFullParse({ plans, national }: CallingCodeSplit): boolean {
	if (plans.prefixForParsing?.test(national) || plans.countries.length > MAX_COUNTRIES_TO_TRY)
		return false;
	return plans.countries.slice(1).every((country) => {
		const valid = validatorFor(country);
		return valid !== undefined && !valid(national);
	});
}

/**
 * Why an invalid number is: too short or too long for its country's plan, or of a length
 * it has but in no range it allocates. Read from the main plan's lengths only, so a list
 * full of bad numbers pays nothing more for being told why.
 */
function whyInvalid({ national, plans }: CallingCodeSplit): string {
	const lengths = (
		planOf(plans.countries[0]) as { possibleLengths?: () => number[] } | undefined
	)?.possibleLengths?.();
	if (!lengths || lengths.length === 0) return '';
	const country = plans.countries[0];
	if (national.length < Math.min(...lengths)) return `: too short for ${country}`;
	if (national.length > Math.max(...lengths)) return `: too long for ${country}`;
	return `: not in a range allocated in ${country}`;
}

// The class libphonenumber-js/max exports is the core one: it takes the metadata itself.
const PhoneNumberWithMetadata = PhoneNumber as unknown as new (
	e164: string,
	meta: unknown,
) => PhoneNumber;

/** An E.164 number judged by the main country of its calling code, as libphonenumber-js's PhoneNumber would judge it. */
function fastE164(compact: string, split: CallingCodeSplit | undefined): string | undefined {
	const valid = split && validatorFor(split.plans.countries[0]);
	if (split && valid) return split.national !== '' && valid(split.national) ? compact : undefined;
	try {
		const n = new PhoneNumberWithMetadata(compact, metadata);
		return n.isValid() ? n.number : undefined;
	} catch {
		return undefined;
	}
}
