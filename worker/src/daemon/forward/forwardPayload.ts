import type { ReplyCallback } from '../../../../api';
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
