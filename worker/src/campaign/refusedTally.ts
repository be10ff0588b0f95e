import type { ImportRow } from '../storage/ledger';
import { countryOf } from '../rows/numberType';
import { RowErrors } from '../rows/rowErrors';

export interface RefusedCounts {
	/** COUNTRY_NOT_ALLOWED rows by their number's country, most first. */
	countries: { country: string; rows: number }[];
	/** NOT_MOBILE rows: fixed-line numbers. */
	notMobile: number;
}

/** A dry run's count of rows the number guardrails refused (numberGuard.ts). */
export class RefusedTally {
	private readonly byCountry = new Map<string, number>();
	private notMobile = 0;

	add(row: ImportRow): void {
		if (row.errorCode === RowErrors.NotMobile) this.notMobile++;
		else if (row.errorCode === RowErrors.CountryNotAllowed && row.to) {
			const country = countryOf(row.to) ?? 'unknown';
			this.byCountry.set(country, (this.byCountry.get(country) ?? 0) + 1);
		}
	}

	result(): { refused?: RefusedCounts } {
		if (this.byCountry.size === 0 && this.notMobile === 0) return {};
		const countries = [...this.byCountry]
			.sort((a, b) => b[1] - a[1])
			.map(([country, rows]) => ({ country, rows }));
		return { refused: { countries, notMobile: this.notMobile } };
	}
}
