import { isGsm7 } from './segments';

/**
 * Typographic characters that make a whole message UCS-2 (70 characters a part instead of
 * 160), each with the GSM-7 character a reader takes for the same: word processors and
 * spreadsheets put curly quotes and dashes into texts nobody meant to pay double for.
 * Letters are never changed (á is not a): only punctuation and spacing.
 */
export const GSM7_EQUIVALENTS: Readonly<Record<string, string>> = {
	'\u2018': "'", // ‘ left single quote
	'\u2019': "'", // ’ right single quote, apostrophe
	'\u201A': "'", // ‚ low single quote
	'\u201B': "'", // ‛ reversed single quote
	'\u2032': "'", // ′ prime
	'\u00B4': "'", // ´ acute accent
	'\u201C': '"', // “ left double quote
	'\u201D': '"', // ” right double quote
	'\u201E': '"', // „ low double quote
	'\u201F': '"', // ‟ reversed double quote
	'\u2033': '"', // ″ double prime
	'\u00AB': '"', // « guillemet
	'\u00BB': '"', // » guillemet
	'\u2039': "'", // ‹ single guillemet
	'\u203A': "'", // › single guillemet
	'\u2010': '-', // ‐ hyphen
	'\u2011': '-', // ‑ non-breaking hyphen
	'\u2012': '-', // ‒ figure dash
	'\u2013': '-', // – en dash
	'\u2014': '-', // — em dash
	'\u2015': '-', // ― horizontal bar
	'\u2212': '-', // − minus sign
	'\u2026': '...', // … ellipsis
	'\u00A0': ' ', // no-break space
	'\u2002': ' ', // en space
	'\u2003': ' ', // em space
	'\u2004': ' ',
	'\u2005': ' ',
	'\u2006': ' ',
	'\u2007': ' ', // figure space
	'\u2008': ' ',
	'\u2009': ' ', // thin space
	'\u200A': ' ', // hair space
	'\u202F': ' ', // narrow no-break space
	'\u205F': ' ', // medium mathematical space
	'\u3000': ' ', // ideographic space
	'\u200B': '', // zero-width space
	'\u200C': '', // zero-width non-joiner
	'\u200D': '', // zero-width joiner
	'\u2060': '', // word joiner
	'\uFEFF': '', // zero-width no-break space (a stray BOM)
	'\u00AD': '', // soft hyphen
	'\u2022': '-', // • bullet
	'\u02C6': '^', // ˆ modifier circumflex
	'\u02DC': '~', // ˜ small tilde
};

// Written as escapes: a zero-width joiner among literal characters would join its neighbours.
const TYPOGRAPHIC = new RegExp(
	`[${Object.keys(GSM7_EQUIVALENTS)
		.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
		.join('')}]`,
	'g',
);

/** The text with each typographic character replaced by its GSM-7 equivalent (`--smart-encoding`). */
export function smartEncode(text: string): string {
	return text.replace(TYPOGRAPHIC, (c) => GSM7_EQUIVALENTS[c]);
}

/** The characters of `text` outside GSM-7, each once, in order of appearance: why a message is UCS-2. */
export function nonGsm7Characters(text: string): string[] {
	const seen = new Set<string>();
	for (const c of text) if (!seen.has(c) && !isGsm7(c)) seen.add(c);
	return [...seen];
}
