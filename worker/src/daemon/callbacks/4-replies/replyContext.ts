import type { ReplyCallback } from '../../../../../api';
import type { ReplyContext } from '../6-forward/forwardPayload';
import { readExternalId } from './runName';

/** A reply with the campaign, run and row its original message's ExternalId names. */
export function replyContext(reply: ReplyCallback, receivedAt: number): ReplyContext {
	const origin = readExternalId(reply.ExternalId);
	return { reply, receivedAt, campaign: origin?.campaign, run: origin?.run, row: origin?.row };
}
