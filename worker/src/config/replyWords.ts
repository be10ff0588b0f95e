/** Letters and digits, an apostrophe inside a word kept ("don't" is one word, not "don" and "t"). */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/**
 * A reply's words, upper-cased, accents and punctuation dropped: people answer "Stop.", "stop!" or
 * "YES please", and keywords are matched against these words, not against the raw text.
 */
export function replyWords(text: string): string[] {
	// Accents dropped: "Arrêt" is ARRET, as a phone without the accent would send it.
	return (
		text
			.normalize('NFD')
			.replace(/\p{M}+/gu, '')
			.toUpperCase()
			.match(WORD) ?? []
	);
}

/** Whether the reply begins with these words ("STOP ALL" begins with STOP; "please stop" does not). */
export function beginsWith(words: readonly string[], keyword: readonly string[]): boolean {
	return (
		keyword.length > 0 && keyword.length <= words.length && keyword.every((w, i) => words[i] === w)
	);
}
