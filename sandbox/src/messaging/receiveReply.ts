import { countSegments, type ReplyCallback } from '../../../api';
import type { CallbackDispatcher } from '../callbacks/dispatcher';
import type { Outbox } from '../callbacks/outbox';
import type { Clock } from '../state/clock';
import { newSid } from '../state/ids';
import type { MessageRecord } from '../state/records';
import type { Store } from '../state/store';
import type { LeasePool } from './leases';

export const NO_REPLY_EMAIL = 'no-reply@sandbox.cloudtel.invalid';

export interface Reply {
	From: string;
	To: string;
	Text: string;
}

/** The message whose active lease a reply answers; undefined when none does. */
export function repliedTo(
	deps: { store: Store; leases: LeasePool; clock: Clock },
	reply: Reply,
): MessageRecord | undefined {
	const lease = deps.leases.find(reply.To, reply.From, deps.clock.now());
	return lease && deps.store.messages.get(lease.MessageSid);
}

/**
 * A reply from `From` to the leased number `To`: stored as an inbound message, then
 * handled as the original message's lease asked (webhook, forward by SMS, by e-mail).
 * Undefined when no active lease matches.
 */
export function receiveReply(
	deps: {
		store: Store;
		leases: LeasePool;
		clock: Clock;
		dispatcher: CallbackDispatcher;
		outbox: Outbox;
	},
	reply: Reply,
): MessageRecord | undefined {
	const now = deps.clock.now();
	const original = repliedTo(deps, reply);
	if (!original) return undefined;
	const inbound: MessageRecord = {
		MessageSid: newSid(),
		AccountSid: original.AccountSid,
		PropertySid: original.PropertySid,
		From: reply.From,
		To: reply.To,
		Text: reply.Text,
		DeliveryReceipt: false,
		NumSegments: countSegments(reply.Text).segments,
		Status: 'Received',
		Direction: 'Inbound',
		Created: now,
		ErrorCode: '',
		ExternalId: original.ExternalId,
		DeliveryReceiptWebhookMethod: 'POST',
		WebhookMethod: 'POST',
		SenderKind: 'e164',
		OriginalMessageSid: original.MessageSid,
		AcceptedAt: Date.now(),
	};
	deps.store.messages.set(inbound.MessageSid, inbound);
	const at = Date.now();
	const ids = {
		AccountSid: original.AccountSid,
		PropertySid: original.PropertySid,
		InboundMessageSid: inbound.MessageSid,
		OriginalMessageSid: original.MessageSid,
		At: at,
	};
	if (original.WebhookUri) {
		const payload: ReplyCallback = {
			MessageSid: inbound.MessageSid,
			OriginalMessageSid: original.MessageSid,
			AccountSid: original.AccountSid,
			PropertySid: original.PropertySid,
			From: reply.From,
			To: reply.To,
			Text: reply.Text,
			ExternalId: original.ExternalId,
			Timestamp: now,
		};
		deps.dispatcher.send('Reply', original.WebhookUri, original.WebhookMethod, payload);
	}
	if (original.ForwardToSms) {
		deps.outbox.sms.push({
			...ids,
			From: original.ForwardFromSms ?? reply.From,
			To: original.ForwardToSms,
			Text: reply.Text,
		});
	}
	if (original.ForwardToEmail) {
		deps.outbox.emails.push({
			...ids,
			From: original.ForwardFromEmail ?? NO_REPLY_EMAIL,
			To: original.ForwardToEmail,
			Subject: `SMS reply from ${reply.From}`,
			Text: `${reply.From} replied to ${reply.To}:\n\n${reply.Text}`,
		});
	}
	return inbound;
}
