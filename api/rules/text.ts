import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export const TEXT_MAX_CHARACTERS = 1600;

/** Characters as a person counts them: code points, so an emoji is one. */
export function characterCount(text: string): number {
	let n = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
			const d = text.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) i++;
		}
		n++;
	}
	return n;
}

/**
 * The first character no SMS can carry, if any: NUL, or half of a UTF-16 surrogate pair
 * without its other half (JSON's "\ud83d" alone decodes to one). Neither has a GSM-7 or a
 * UCS-2 encoding, and a lone half is no character at all. `at` counts characters from 1.
 */
export function unsendableCharacter(text: string): { at: number; what: string } | undefined {
	let at = 0;
	for (let i = 0; i < text.length; i++) {
		at++;
		const c = text.charCodeAt(i);
		if (c === 0) return { at, what: 'a NUL character (U+0000)' };
		if (c >= 0xd800 && c <= 0xdbff) {
			const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
			if (d >= 0xdc00 && d <= 0xdfff) i++;
			else
				return {
					at,
					what: `a lone surrogate (U+${c.toString(16).toUpperCase()}, half of a character)`,
				};
		} else if (c >= 0xdc00 && c <= 0xdfff)
			return {
				at,
				what: `a lone surrogate (U+${c.toString(16).toUpperCase()}, half of a character)`,
			};
	}
	return undefined;
}

export function checkText(field: string, value: string): Violation | undefined {
	const n = characterCount(value);
	if (n < 1 || n > TEXT_MAX_CHARACTERS)
		return violation(
			field,
			ErrorCodes.InvalidTextLength,
			`${field} must be 1 to ${TEXT_MAX_CHARACTERS} characters (got ${n}).`,
		);
	const bad = unsendableCharacter(value);
	if (bad)
		return violation(
			field,
			ErrorCodes.InvalidCharacter,
			`${field} has ${bad.what} at character ${bad.at}, which no message can carry.`,
		);
	return undefined;
}
