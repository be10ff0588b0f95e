/** Why `value` cannot be the provider's address, or undefined when it can. */
export function baseUrlProblem(value: string): string | undefined {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return `is not a URL (got "${value}"): give the provider's address, such as https://api.example.com`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return `must start with http:// or https:// (got "${value}")`;
	return undefined;
}
