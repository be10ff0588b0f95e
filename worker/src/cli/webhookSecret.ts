import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../../api';

/** A fresh Standard Webhooks secret: 32 random bytes, as Svix's own are 24 to 64. */
export function newWebhookSecret(): string {
	return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}
