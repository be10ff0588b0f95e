/** A data record, or a stretch of the file csv-parse could not read as one. */
export type CsvItem = { line: number; fields: string[] } | { line: number; endLine: number; error: string };

export function isCsvError(item: CsvItem): item is { line: number; endLine: number; error: string } {
	return 'error' in item;
}
