import {
	countSegments,
	effectiveSenderKind,
	isBlank,
	isDeferred,
	normaliseWebhookMethod,
	type SendMessageRequest,
} from '../../../api';
import { newSid } from '../state/ids';
import type { MessageRecord, PropertyRecord } from '../state/records';
import type { Store } from '../state/store';
import type { LeasePool } from './leases';

/**
 * Turns a validated send request into a stored message: resolves the sender (a lease
 * for blank From, and for alphanumeric to +1), counts segments, and sets the first status.
 */
export function acceptMessage(
	store: Store,
	leases: LeasePool,
	property: PropertyRecord,
	req: SendMessageRequest,
	now: number,
): MessageRecord {
	const MessageSid = newSid();
	const kind = effectiveSenderKind(req.From, req.To)!;
	const leased = kind === 'leased';
	const asked = isBlank(req.From);
	const message: MessageRecord = {
		MessageSid,
		AccountSid: property.AccountSid,
		PropertySid: property.PropertySid,
		From: leased ? leases.lease(property.AccountSid, req.To, MessageSid, now) : req.From!,
		To: req.To,
		Text: req.Text,
		DeliveryReceipt: req.DeliveryReceipt ?? true,
		NumSegments: countSegments(req.Text).segments,
		Status: isDeferred(req.Schedule, now) ? 'Scheduled' : 'Processing',
		Direction: 'Outbound',
		Created: now,
		ErrorCode: '',
		ExternalId: req.ExternalId ?? '',
		Schedule: req.Schedule,
		DeliveryReceiptWebhookUri: req.DeliveryReceiptWebhookUri,
		DeliveryReceiptWebhookMethod: normaliseWebhookMethod(req.DeliveryReceiptWebhookMethod)!,
		WebhookMethod: normaliseWebhookMethod(asked ? req.WebhookMethod : undefined)!,
		SenderKind: kind,
		AcceptedAt: Date.now(),
	};
	// Reply options exist only where the user asked for a lease; validation refused them elsewhere.
	if (asked) {
		message.WebhookUri = req.WebhookUri;
		message.ForwardToSms = req.ForwardToSms;
		message.ForwardFromSms = req.ForwardFromSms;
		message.ForwardToEmail = req.ForwardToEmail;
		message.ForwardFromEmail = req.ForwardFromEmail;
	}
	store.messages.set(MessageSid, message);
	return message;
}

/** The Message object returned to the client: the interface's fields, no internals. */
export function publicMessage(m: MessageRecord) {
	return {
		MessageSid: m.MessageSid,
		AccountSid: m.AccountSid,
		PropertySid: m.PropertySid,
		From: m.From,
		To: m.To,
		Text: m.Text,
		DeliveryReceipt: m.DeliveryReceipt,
		NumSegments: m.NumSegments,
		Status: m.Status,
		Direction: m.Direction,
		Created: m.Created,
		ErrorCode: m.ErrorCode,
		ExternalId: m.ExternalId,
	};
}
