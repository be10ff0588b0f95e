/**
 * `<campaign>:<row>`, the row being the CSV line the record starts on; a variant campaign's
 * `<campaign>:v<variant>:<row>`, so the provider's records tell which text went.
 */
export function externalId(campaign: string, line: number, variant?: number): string {
	return variant === undefined ? `${campaign}:${line}` : `${campaign}:v${variant}:${line}`;
}

/** The inverse of {@link externalId}: the campaign and line (and variant), when the id has that shape. */
export function parseExternalId(
	id: string,
): { campaign: string; line: number; variant?: number } | undefined {
	const colon = id.lastIndexOf(':');
	if (colon <= 0) return undefined;
	const line = id.slice(colon + 1);
	if (!/^\d+$/.test(line)) return undefined;
	// Campaign names hold no colon: a `:v<n>` before the row is the variant's.
	const variant = /^(.+):v(\d+)$/.exec(id.slice(0, colon));
	if (variant) return { campaign: variant[1], line: Number(line), variant: Number(variant[2]) };
	return { campaign: id.slice(0, colon), line: Number(line) };
}
