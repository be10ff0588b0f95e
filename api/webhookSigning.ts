/**
 * Standard Webhooks (standardwebhooks.com): what a signed delivery carries and what its
 * signature covers. The HMAC itself is computed by each side with its platform's crypto
 * (this folder imports nothing); both sign and check exactly `signedContent`.
 */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** A secret as `cloudtel secret new` prints it: this prefix, then the key in base64. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A delivery whose timestamp is further than this from the receiver's clock is refused (a replayed capture). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/** The signature's version tag: `v1,<base64 HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_VERSION = 'v1';

/** The text the HMAC covers: `{id}.{timestamp}.{body}`, the body exactly as sent. */
export function signedContent(id: string, timestamp: number, body: string): string {
	return `${id}.${timestamp}.${body}`;
}

/**
 * The base64 key of a `whsec_...` secret (a bare base64 key is taken too, as other
 * Standard Webhooks libraries do); undefined when it is not base64 of at least 16 bytes.
 */
export function webhookSecretKey(secret: string): string | undefined {
	const key = secret.startsWith(WEBHOOK_SECRET_PREFIX)
		? secret.slice(WEBHOOK_SECRET_PREFIX.length)
		: secret;
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || key.length % 4 !== 0) return undefined;
	const bytes = (key.length / 4) * 3 - (key.endsWith('==') ? 2 : key.endsWith('=') ? 1 : 0);
	return bytes >= 16 ? key : undefined;
}

/** The `v1` signatures of a `webhook-signature` header (space-separated, one per secret while rotating). */
export function v1Signatures(header: string): string[] {
	return header
		.split(' ')
		.map((part) => part.split(','))
		.filter(([version, sig]) => version === WEBHOOK_SIGNATURE_VERSION && sig)
		.map(([, sig]) => sig);
}
