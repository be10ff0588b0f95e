import type { CallbackEvent, ReplyCallback } from '../../../../../api';
import type { ReplyAction } from '../../../config/workerConfigSchema';
import type { EventForward } from './eventForward';

export type ForwardAction = Exclude<ReplyAction, { type: 'optOut' }>;
export type ForwardKind = ForwardAction['type'];

/** A reply with what the worker knows of it. */
export interface ReplyContext {
	reply: ReplyCallback;
	/** The campaign from the config, when the original message came from one. */
	campaign?: string;
	/** The cron run of it, `<campaign>-<tick>`, and the CSV row. */
	run?: string;
	row?: number;
	/** Unix milliseconds the webhook stored the reply. */
	receivedAt: number;
	/** An e-mail's: the name on the row replied to (its CSV's first_name or name column). */
	name?: string;
	/** An e-mail's: the reply opted its sender out, by this keyword or reply rule. */
	optedOut?: { keyword?: string; rule?: string };
}

/**
 * Everything one forward needs, frozen when it is queued: a config edited and reloaded
 * later does not change what an already accepted reply becomes.
 */
export interface ForwardPayload {
	action: ForwardAction;
	context: ReplyContext;
	/** An SMS sent as it is, not the reply forwarded: an opt-out's confirmation. */
	text?: string;
}

/**
 * A callback handed on as the provider sent it, to the CloudTel Trigger of an n8n (config
 * `forward.n8n`): receipts as well as replies, each once, whatever became of it here. The
 * URL and headers are read from the config when it is sent (the trigger's secret is in them).
 */
export interface CallbackForward {
	action: { type: 'n8n' };
	event: CallbackEvent;
	receivedAt: number;
}

/** What the outbox queues: a reply rule's forward, a callback for n8n, or an event for an events URL. */
export type QueuedForward = ForwardPayload | CallbackForward | EventForward;

export function isCallbackForward(payload: QueuedForward): payload is CallbackForward {
	return payload.action.type === 'n8n';
}

export function isEventForward(payload: QueuedForward): payload is EventForward {
	return payload.action.type === 'event';
}

/** The MessageSid a reply rule's forward or a callback is about. */
export function forwardMessageSid(payload: ForwardPayload | CallbackForward): string {
	return isCallbackForward(payload)
		? payload.event.data.MessageSid
		: payload.context.reply.MessageSid;
}
