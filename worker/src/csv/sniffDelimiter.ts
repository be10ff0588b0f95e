export const DELIMITER_CANDIDATES = [',', ';', '\t', '|'] as const;

/**
 * Picks the delimiter from the header line: the candidate seen most often outside quotes.
 * Spreadsheets in many European locales write `;`, and people export TSV; a header is
 * the one line whose shape we can trust.
 */
export function sniffDelimiter(sample: string): string {
	let text = sample.charCodeAt(0) === 0xfeff ? sample.slice(1) : sample;
	const counts = new Map<string, number>(DELIMITER_CANDIDATES.map((d) => [d, 0]));
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"') quoted = !quoted;
		else if (!quoted && (c === '\n' || c === '\r')) {
			text = text.slice(0, i);
			break;
		} else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
	}
	let best = ',';
	let bestCount = 0;
	for (const [d, n] of counts) {
		if (n > bestCount) {
			best = d;
			bestCount = n;
		}
	}
	return best;
}
