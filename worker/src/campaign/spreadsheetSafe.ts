/** A whole number as a cell may hold it: an E.164 number (+61491570101), -5, 1.5e3. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A cell a spreadsheet would not run as a formula (OWASP's CSV injection rule): one that
 * begins with =, +, -, @, a tab or a carriage return gets a ' first, unless it is wholly a
 * number, which a spreadsheet reads as a number anyway.
 */
export function spreadsheetSafe(value: string): string {
	return /^[=+\-@\t\r]/.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}
