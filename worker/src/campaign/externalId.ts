/** `<campaign>:<row>`, the row being the CSV line the record starts on. */
export function externalId(campaign: string, line: number): string {
	return `${campaign}:${line}`;
}
