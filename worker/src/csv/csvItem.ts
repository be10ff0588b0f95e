/** A data record, or a line that could not be read as the start of one. */
export type CsvItem = { line: number; fields: string[] } | { line: number; endLine: number; error: string };

export function isCsvError(item: CsvItem): item is { line: number; endLine: number; error: string } {
	return 'error' in item;
}
