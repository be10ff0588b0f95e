/**
 * Bodies of the campaign API nest a few levels (a page: object, array, recipient); one
 * nesting thousands deep made JSON.parse hold the event loop for seconds (callbacks waited).
 */
export const MAX_JSON_DEPTH = 32;

/** Whether JSON text nests deeper than `max` objects and arrays, found in one pass before it is parsed. */
export function nestsDeeperThan(text: string, max: number): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 0x5c)
				i++; // a backslash: the next character is escaped
			else if (c === 0x22) inString = false;
		} else if (c === 0x22) inString = true;
		else if (c === 0x7b || c === 0x5b) {
			if (++depth > max) return true;
		} else if (c === 0x7d || c === 0x5d) depth--;
	}
	return false;
}
