import type { ForwardJob } from '../../../storage/daemonStore';
import { destinationOf } from './forwardDestination';
import {
	forwardMessageSid,
	isCallbackForward,
	isEventForward,
	type QueuedForward,
} from './forwardPayload';

/** A delivery by HTTP as `cloudtel events list` shows it. */
export interface Delivery {
	/** The forward's number in the outbox. */
	forward: number;
	/** Its webhook-id and Idempotency-Key, the same on every attempt and replay. */
	id: string;
	/** `campaign.finished`, `reply`, `receipt`, ... */
	type: string;
	/** Where it goes, as the outbox counts receivers: `events`, `n8n`, `post https://...`. */
	destination: string;
	/** The URL, when the delivery itself holds it (a post, an API campaign's events). */
	url?: string;
	state: string;
	attempts: number;
	lastError?: string;
	createdAt: string;
	updatedAt: string;
}

/** The forward as a delivery by HTTP; undefined for an SMS or an e-mail forward. */
export function deliveryOf(job: ForwardJob): Delivery | undefined {
	const payload = job.payload as QueuedForward;
	let id: string;
	let type: string;
	let url: string | undefined;
	if (isEventForward(payload)) {
		({ id, type } = payload.event);
		url = payload.action.url;
	} else if (isCallbackForward(payload)) {
		id = job.eventKey;
		type = payload.event.kind;
	} else if (payload.action.type === 'post') {
		id = `${forwardMessageSid(payload)}.${job.actionKey}`;
		type = 'reply';
		url = payload.action.url;
	} else return undefined;
	return {
		forward: job.id,
		id,
		type,
		destination: destinationOf(payload),
		...(url !== undefined ? { url } : {}),
		state: job.state,
		attempts: job.attempts,
		...(job.lastError !== undefined ? { lastError: job.lastError } : {}),
		createdAt: new Date(job.createdAt ?? 0).toISOString(),
		updatedAt: new Date(job.updatedAt ?? 0).toISOString(),
	};
}
