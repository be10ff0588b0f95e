import type { SigningConfig } from '../../../config/signingConfig';
import type { ForwardIdentity, ForwardOutcome, Forwarder } from './forwardOutcome';
import type { ForwardPayload } from './forwardPayload';
import { postIdempotent } from './idempotentPost';
import { replyTime } from './replyDescription';

/**
 * Posts a reply as JSON to a URL of the user's. Every attempt carries the same
 * Idempotency-Key, so a receiver can drop the repeat of an attempt whose answer was lost.
 */
export class PostForwarder implements Forwarder {
	/** `headersFor`: the action's static headers, from the config (see postHeaders). */
	constructor(
		private readonly headersFor: (
			actionKey: string,
			url: string,
		) => Record<string, string> | undefined = () => ({}),
		/** The action's `signing`, else the worker-wide one: from the config, as the headers. */
		private readonly signingFor: (
			actionKey: string,
			url: string,
		) => SigningConfig | undefined = () => undefined,
	) {}

	async send(payload: ForwardPayload, identity: ForwardIdentity): Promise<ForwardOutcome> {
		const { action, context } = payload;
		if (action.type !== 'post') return { kind: 'failed', reason: `not a post: ${action.type}` };
		// Forwards queued before headers were left out of them still carry their own.
		const headers = action.headers ?? this.headersFor(identity.actionKey, action.url);
		if (headers === undefined)
			return {
				kind: 'failed',
				reason: `no reply rule of the config posts to ${new URL(action.url).host} any more: its headers are not known`,
			};
		const body = {
			Event: 'reply',
			...context.reply,
			Campaign: context.campaign ?? null,
			Run: context.run ?? null,
			Row: context.row ?? null,
			ReceivedAt: replyTime(context).toISOString(),
		};
		return postIdempotent({
			url: action.url,
			headers,
			body,
			key: identity.key,
			signing: this.signingFor(identity.actionKey, action.url),
		});
	}

	async close(): Promise<void> {}
}
