/** Line numbers as ranges, `12-40, 57`: four thousand uncertain rows stay one short line. */
export function lineRanges(lines: readonly number[]): string {
	const sorted = [...lines].sort((a, b) => a - b);
	const parts: string[] = [];
	for (let i = 0; i < sorted.length; ) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] <= sorted[j] + 1) j++;
		parts.push(sorted[i] === sorted[j] ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
		i = j + 1;
	}
	return parts.join(', ');
}
