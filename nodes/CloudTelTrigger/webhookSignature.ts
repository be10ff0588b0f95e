import { createHmac, timingSafeEqual } from 'node:crypto';
import {
	signedContent,
	v1Signatures,
	WEBHOOK_ID_HEADER,
	WEBHOOK_SIGNATURE_HEADER,
	WEBHOOK_TIMESTAMP_HEADER,
	WEBHOOK_TOLERANCE_SECONDS,
	webhookSecretKey,
} from '../../api';

function header(headers: Record<string, unknown>, name: string): string | undefined {
	const v = headers[name];
	const first = Array.isArray(v) ? v[0] : v;
	return typeof first === 'string' && first !== '' ? first : undefined;
}

/**
 * Why a delivery is not the worker's, signed with `secret` (Standard Webhooks), or undefined
 * when it is. A timestamp more than 5 minutes from now is refused even when the signature
 * matches: a delivery captured on the way and sent again later.
 */
export function signatureProblem(
	secret: string,
	headers: Record<string, unknown>,
	body: string,
	nowMs: number,
): string | undefined {
	const key = webhookSecretKey(secret.trim());
	if (key === undefined)
		return 'The Signing Secret is not a whsec_ secret: copy it from the worker.';
	const id = header(headers, WEBHOOK_ID_HEADER);
	const timestamp = header(headers, WEBHOOK_TIMESTAMP_HEADER);
	const signature = header(headers, WEBHOOK_SIGNATURE_HEADER);
	if (id === undefined || timestamp === undefined || signature === undefined)
		return 'Missing webhook-id, webhook-timestamp or webhook-signature.';
	const seconds = Number(timestamp);
	if (!/^\d+$/.test(timestamp) || Math.abs(nowMs / 1000 - seconds) > WEBHOOK_TOLERANCE_SECONDS)
		return 'The webhook-timestamp is more than 5 minutes from now.';
	const expected = createHmac('sha256', Buffer.from(key, 'base64'))
		.update(signedContent(id, seconds, body))
		.digest();
	const matches = v1Signatures(signature).some((sig) => {
		const given = Buffer.from(sig, 'base64');
		return given.length === expected.length && timingSafeEqual(given, expected);
	});
	return matches ? undefined : 'The webhook-signature does not match.';
}
