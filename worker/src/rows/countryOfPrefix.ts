import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Failures grouped by country. The ledger groups them by the number's first digits ('+'
 * and five, enough for the calling code and, for +1 and +7, the area); the country of one
 * number of each group is taken for all of it, so a million failures cost a few hundred
 * look-ups, not a million.
 */
export function failuresByCountry(
	groups: { sample: string; count: number }[],
): { country: string; count: number }[] {
	const byCountry = new Map<string, number>();
	for (const g of groups) {
		const country = parsePhoneNumberFromString(g.sample)?.country ?? 'unknown';
		byCountry.set(country, (byCountry.get(country) ?? 0) + g.count);
	}
	return [...byCountry]
		.map(([country, count]) => ({ country, count }))
		.sort((x, y) => y.count - x.count || x.country.localeCompare(y.country));
}
