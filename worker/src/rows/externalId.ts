/** `<campaign>:<row>`, the row being the CSV line the record starts on. */
export function externalId(campaign: string, line: number): string {
	return `${campaign}:${line}`;
}

/** The inverse of {@link externalId}: the campaign and line, when the id has that shape. */
export function parseExternalId(id: string): { campaign: string; line: number } | undefined {
	const colon = id.lastIndexOf(':');
	if (colon <= 0) return undefined;
	const line = id.slice(colon + 1);
	return /^\d+$/.test(line) ? { campaign: id.slice(0, colon), line: Number(line) } : undefined;
}
