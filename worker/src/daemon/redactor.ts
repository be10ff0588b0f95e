const REDACTED = '[redacted]';

/**
 * Cuts known secret values out of text, in the forms they take in logs: as given, escaped
 * inside JSON, and percent-encoded inside a URL.
 */
export class Redactor {
	private readonly forms: string[];

	constructor(secrets: readonly (string | undefined)[]) {
		// Very short values would blank ordinary words; the config refuses such secrets anyway.
		const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
		this.forms = [
			...new Set(values.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)])),
		].sort((a, b) => b.length - a.length);
	}

	redact(text: string): string {
		for (const s of this.forms) if (text.includes(s)) text = text.split(s).join(REDACTED);
		return text;
	}
}
