/** Control characters, which a binary file's bytes become, and which a terminal would act on. */
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text from a file, safe to print on one line: control characters written as escapes. */
export function printable(text: string): string {
	return text.replace(CONTROL, (c) =>
		c === '\n'
			? '\\n'
			: c === '\r'
				? '\\r'
				: c === '\t'
					? '\\t'
					: `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
	);
}
