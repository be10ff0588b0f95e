import type { CallbackEvent, ReplyCallback } from '../../../../api';
import type { ReplyAction } from '../../config/workerConfigSchema';

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
}

/**
 * Everything one forward needs, frozen when it is queued: a config edited and reloaded
 * later does not change what an already accepted reply becomes.
 */
export interface ForwardPayload {
	action: ForwardAction;
	context: ReplyContext;
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

/** What the outbox queues: a reply rule's forward, or a callback for n8n. */
export type QueuedForward = ForwardPayload | CallbackForward;

export function isCallbackForward(payload: QueuedForward): payload is CallbackForward {
	return payload.action.type === 'n8n';
}

/** The MessageSid a queued forward is about (the reply's, or the callback's). */
export function forwardMessageSid(payload: QueuedForward): string {
	return isCallbackForward(payload) ? payload.event.data.MessageSid : payload.context.reply.MessageSid;
}
