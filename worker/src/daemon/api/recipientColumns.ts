import { RECIPIENT_CONSENT_KEY } from '../../../../api';

/** The columns a recipient's `consent` becomes: the engine reads them as `--consent-column` and `--consent-at-column`. */
export const CONSENT_SOURCE_COLUMN = 'consent.source';
export const CONSENT_AT_COLUMN = 'consent.at';

/** Whether the rows of these pages carry consent columns: when a recipient gave one, or the campaign requires it. */
export function consentInCsv(
	columns: readonly string[],
	requireConsent: boolean | undefined,
): boolean {
	return requireConsent === true || columns.includes(RECIPIENT_CONSENT_KEY);
}

/** The header of the rows made from pages of these columns. */
export function csvHeader(columns: readonly string[], consent: boolean): string[] {
	const plain = columns.filter((c) => c !== RECIPIENT_CONSENT_KEY);
	return consent ? [...plain, CONSENT_SOURCE_COLUMN, CONSENT_AT_COLUMN] : plain;
}

/** Every page's columns, in the order they first appear (page order, then key order). */
export function unionColumns(pages: string[][]): string[] {
	const seen = new Set<string>();
	for (const columns of pages) for (const c of columns) seen.add(c);
	return [...seen];
}
