import { createHmac } from 'node:crypto';
import {
	signedContent,
	WEBHOOK_ID_HEADER,
	WEBHOOK_SIGNATURE_HEADER,
	WEBHOOK_SIGNATURE_VERSION,
	WEBHOOK_TIMESTAMP_HEADER,
	webhookSecretKey,
} from '../../../../../api';
import type { SigningConfig } from '../../../config/signingConfig';

function sign(secret: string, content: string): string {
	const key = Buffer.from(webhookSecretKey(secret) ?? '', 'base64');
	return `${WEBHOOK_SIGNATURE_VERSION},${createHmac('sha256', key).update(content).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt: `id` is the event's, the same on every
 * attempt and replay (a receiver de-duplicates on it); the timestamp is this attempt's,
 * so a receiver can refuse a captured delivery sent again later. Unsigned without a secret.
 */
export function webhookHeaders(
	signing: SigningConfig | undefined,
	id: string,
	body: string,
	nowMs = Date.now(),
): Record<string, string> {
	const timestamp = Math.floor(nowMs / 1000);
	const headers: Record<string, string> = {
		[WEBHOOK_ID_HEADER]: id,
		[WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
	};
	if (signing) {
		const content = signedContent(id, timestamp, body);
		const secrets = [signing.secret, signing.previousSecret].filter((s) => s !== undefined);
		headers[WEBHOOK_SIGNATURE_HEADER] = secrets.map((s) => sign(s, content)).join(' ');
	}
	return headers;
}
