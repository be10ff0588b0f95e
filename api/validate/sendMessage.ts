import { ErrorCodes } from '../errorCodes';
import { checkShape, isBlank, isPlainObject, type Shape } from '../fields';
import { checkEmail } from '../rules/email';
import { checkE164 } from '../rules/phone';
import { checkSchedule } from '../rules/schedule';
import { checkForwardSender, checkSender } from '../rules/sender';
import { checkText } from '../rules/text';
import { checkWebhookMethod, checkWebhookUri } from '../rules/webhook';
import { violation, type Violation } from '../violation';
import type { ValidationContext } from './context';

export const LEASE_ONLY_FIELDS = [
	'ForwardToSms',
	'ForwardFromSms',
	'ForwardToEmail',
	'ForwardFromEmail',
	'WebhookUri',
	'WebhookMethod',
] as const;

// Built once: this runs for every row of a million-row campaign.
const SEND: Shape = {
	From: { type: 'string', check: (f, v: string) => (isBlank(v) ? undefined : checkSender(f, v)) },
	To: { type: 'string', required: true, check: checkE164 },
	Text: { type: 'string', required: true, check: checkText },
	Schedule: {
		type: 'integer',
		check: (f, v: number, _body, context) => checkSchedule(f, v, context.now),
	},
	DeliveryReceipt: { type: 'boolean' },
	DeliveryReceiptWebhookUri: { type: 'string', check: checkWebhookUri },
	DeliveryReceiptWebhookMethod: { type: 'string', check: checkWebhookMethod },
	ExternalId: { type: 'string' },
	ForwardToSms: { type: 'string', check: checkE164 },
	ForwardFromSms: { type: 'string', check: checkForwardSender },
	ForwardToEmail: { type: 'string', check: checkEmail },
	ForwardFromEmail: { type: 'string', check: checkEmail },
	WebhookUri: { type: 'string', check: checkWebhookUri },
	WebhookMethod: { type: 'string', check: checkWebhookMethod },
};

/**
 * Validates one message, as endpoint 5 takes it and as each element of a batch.
 * Lease-only fields say how a reply is handled, so they need a leased sender: with a
 * non-blank From each one present is refused on its own field.
 */
export function validateSendMessage(body: unknown, ctx: ValidationContext): Violation[] {
	const out = checkShape(body, SEND, {}, ctx);
	if (!isPlainObject(body) || isBlank(body.From)) return out;
	for (const field of LEASE_ONLY_FIELDS) {
		if (body[field] !== undefined && body[field] !== null) {
			out.push(
				violation(
					field,
					ErrorCodes.LeaseOnlyField,
					`${field} applies only to a leased sender: leave From blank to use it.`,
				),
			);
		}
	}
	return out;
}

/** Every field a message may carry, as the interface names them. */
export const SEND_MESSAGE_FIELDS: readonly string[] = Object.keys(SEND);
