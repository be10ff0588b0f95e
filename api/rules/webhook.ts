import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export type WebhookMethod = 'POST' | 'GET';

export function isWebhookUri(value: string): boolean {
	if (!/^https?:\/\//i.test(value)) return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

export function checkWebhookUri(field: string, value: string): Violation | undefined {
	if (isWebhookUri(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidUri,
		`${field} must be an absolute http or https URL (got "${value}").`,
	);
}

/** Methods are POST or GET, in any letter case; callers should send them upper-case. */
export function normaliseWebhookMethod(value: string | undefined): WebhookMethod | undefined {
	if (value === undefined) return 'POST';
	const upper = value.toUpperCase();
	return upper === 'POST' || upper === 'GET' ? upper : undefined;
}

export function checkWebhookMethod(field: string, value: string): Violation | undefined {
	if (normaliseWebhookMethod(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidMethod,
		`${field} must be POST or GET (got "${value}").`,
	);
}
