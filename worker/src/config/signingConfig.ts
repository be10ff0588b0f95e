import { z } from 'zod';
import { WEBHOOK_SECRET_PREFIX, webhookSecretKey } from '../../../api';

const secret = z
	.string()
	.refine(
		(v) => v.startsWith(WEBHOOK_SECRET_PREFIX) && webhookSecretKey(v) !== undefined,
		`must be ${WEBHOOK_SECRET_PREFIX} then a base64 key of at least 16 bytes: make one with \`cloudtel secret new\``,
	);

/**
 * `signing`: the Standard Webhooks secret every POST out is signed with (worker-wide, or a
 * destination's own, which wins); `previousSecret` while a receiver moves to the new one,
 * when each delivery carries both signatures.
 */
export const signingConfig = z
	.strictObject({ secret, previousSecret: secret.optional() })
	.refine((s) => s.previousSecret !== s.secret, {
		path: ['previousSecret'],
		message: 'is the same as secret: after a rotation it is the old one',
	});

export type SigningConfig = z.output<typeof signingConfig>;
