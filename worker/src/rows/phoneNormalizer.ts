import { Metadata } from 'libphonenumber-js/core';
import { PhoneNumber, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';
import { compilePhonePatternsOnce } from './compiledPatterns';

compilePhonePatternsOnce();

export type Normalized = { e164: string } | { error: string };

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
 * E.164, and for those the country parse is the costly half of the work: building the
 * number from its digits and asking the full metadata whether it is valid gives the same
 * answer in a quarter of the time; national formats of countries with a plain 0 trunk
 * prefix get the same treatment. Anything the fast paths do not accept takes the full
 * parse, which stays the only judge of a number being invalid.
 */
export class PhoneNormalizer {
	private readonly cache = new Map<string, Normalized>();
	readonly defaultCountry: CountryCode | undefined;
	private readonly national: NationalPrefix | undefined;

	constructor(defaultCountry?: string) {
		if (defaultCountry !== undefined && defaultCountry !== '') {
			const cc = defaultCountry.toUpperCase();
			if (!isSupportedCountry(cc)) throw new Error(`--default-country must be a two-letter country code such as AU or GB (got "${defaultCountry}")`);
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
			const fast = fastE164(compact);
			if (fast) return { e164: fast };
		} else if (this.national && NATIONAL.test(compact) && this.national.stripsOnlyTheZero(compact)) {
			const fast = fastE164(`+${this.national.callingCode}${compact.slice(1)}`);
			if (fast) return { e164: fast };
		}
		const parsed = parsePhoneNumberFromString(trimmed, this.defaultCountry ? { defaultCountry: this.defaultCountry } : undefined);
		if (parsed && parsed.isValid()) return { e164: parsed.number };
		if (!parsed && !trimmed.startsWith('+') && !this.defaultCountry) {
			return { error: `"${trimmed}" is not in international format (+ and country code) and no --default-country was given` };
		}
		const where = this.defaultCountry && !trimmed.startsWith('+') ? ` for ${this.defaultCountry}` : '';
		return { error: `"${trimmed}" is not a valid phone number${where}` };
	}
}

/** Accessors libphonenumber-js's numbering plans have but its type definitions leave out. */
interface PlanAccessors {
	callingCode(): string;
	nationalPrefix(): string | undefined;
	nationalPrefixForParsing(): string | undefined;
	nationalPrefixTransformRule(): string | undefined;
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
	let plan: PlanAccessors | undefined;
	try {
		const all = new Metadata(metadata as unknown as ConstructorParameters<typeof Metadata>[0]);
		all.selectNumberingPlan(country);
		plan = all.numberingPlan as unknown as PlanAccessors;
		if (plan.nationalPrefix() !== '0' || plan.nationalPrefixTransformRule()) return undefined;
	} catch {
		// A libphonenumber-js without these accessors: every national number takes the full parse.
		return undefined;
	}
	const forParsing = new RegExp(`^(?:${plan.nationalPrefixForParsing() ?? '0'})`);
	return {
		callingCode: plan.callingCode(),
		stripsOnlyTheZero(compact) {
			const m = forParsing.exec(compact);
			return m !== null && m[0] === '0' && m.slice(1).every((group) => group === undefined);
		},
	};
}

// The class libphonenumber-js/max exports is the core one: it takes the metadata itself.
const PhoneNumberWithMetadata = PhoneNumber as unknown as new (e164: string, meta: unknown) => PhoneNumber;

function fastE164(compact: string): string | undefined {
	try {
		const n = new PhoneNumberWithMetadata(compact, metadata);
		return n.isValid() ? n.number : undefined;
	} catch {
		return undefined;
	}
}
