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

/**
 * A row error's reason quotes the value at fault ("0412 345 4029 9" is not a valid phone
 * number), which no E.164 pattern catches: a quoted value with 6 digits or more keeps its
 * first two digits and last three, the rest masked.
 */
export function maskQuotedNumbers(text: string): string {
	return text.replace(/"([^"]*)"/g, (whole, value: string) => {
		const digits = value.replace(/\D/g, '').length;
		if (digits < 6) return whole;
		let seen = 0;
		return `"${value.replace(/\d/g, (d) => (++seen <= 2 || seen > digits - 3 ? d : '*'))}"`;
	});
}
