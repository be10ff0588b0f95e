/**
 * Which field of a recipient holds the number: the one named, else the first of To, Phone,
 * Mobile. Names match exactly first, then by a unique case-insensitive match, because
 * spreadsheets and CRMs drift in capitalisation. The worker picks a campaign's column by it
 * and Send Batch's Map From Input an item's number, so both find the same field.
 */
export const TO_COLUMN_GUESSES = ['To', 'Phone', 'Mobile'] as const;

/** The index of `name` among `header`: exact, else the one case-insensitive match; -1 when none or several. */
export function columnIndex(header: readonly string[], name: string): number {
	const exact = header.indexOf(name);
	if (exact >= 0) return exact;
	const lower = name.toLowerCase();
	let found = -1;
	for (let i = 0; i < header.length; i++) {
		if (header[i].toLowerCase() !== lower) continue;
		if (found >= 0) return -1;
		found = i;
	}
	return found;
}

/** The column the numbers are read from: the one given, else the first of To, Phone, Mobile; -1 when none is there. */
export function toColumnIndex(header: readonly string[], toColumn?: string): number {
	if (toColumn !== undefined) return columnIndex(header, toColumn);
	for (const guess of TO_COLUMN_GUESSES) {
		const i = columnIndex(header, guess);
		if (i >= 0) return i;
	}
	return -1;
}
