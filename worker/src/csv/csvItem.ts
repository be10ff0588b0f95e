/** A data record (with a warning when it was read in a way its author may not have meant), or a line that could not be read as the start of one. */
export type CsvItem =
	| { line: number; fields: string[]; warning?: string }
	| { line: number; endLine: number; error: string };

export function isCsvError(
	item: CsvItem,
): item is { line: number; endLine: number; error: string } {
	return 'error' in item;
}
