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

export function checkText(field: string, value: string): Violation | undefined {
	const n = characterCount(value);
	if (n >= 1 && n <= TEXT_MAX_CHARACTERS) return undefined;
	return violation(field, ErrorCodes.InvalidTextLength, `${field} must be 1 to ${TEXT_MAX_CHARACTERS} characters (got ${n}).`);
}
