/** A phone number in E.164 inside any text: "+" and 8 to 15 digits, not part of a longer run. */
const NUMBER = /(?<![\w+])\+(\d{8,15})(?!\d)/g;

/**
 * Phone numbers masked for a log: the country and the first digits, then the last three
 * (`+61410000103` reads `+6141****103`), enough to tell numbers apart while looking into
 * something, not enough to text or call one.
 */
export function maskPhoneNumbers(text: string): string {
	return text.replace(NUMBER, (_whole, digits: string) => {
		const lead = Math.max(1, Math.min(4, digits.length - 7));
		return `+${digits.slice(0, lead)}****${digits.slice(-3)}`;
	});
}
