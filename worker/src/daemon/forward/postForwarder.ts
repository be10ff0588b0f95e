import { request } from 'undici';
import type { ForwardIdentity, ForwardOutcome, Forwarder } from './forwardOutcome';
import type { ForwardPayload } from './forwardPayload';
import { replyTime } from './replyDescription';

/** Answers that say "later" rather than "never". */
function transient(status: number): boolean {
	return status === 408 || status === 429 || status >= 500;
}

/**
 * Posts a reply as JSON to a URL of the user's. Every attempt carries the same
 * Idempotency-Key, so a receiver can drop the repeat of an attempt whose answer was lost.
 */
export class PostForwarder implements Forwarder {
	/** `headersFor`: the action's static headers, from the config (see postHeaders). */
	constructor(private readonly headersFor: (actionKey: string, url: string) => Record<string, string> | undefined = () => ({})) {}

	async send(payload: ForwardPayload, identity: ForwardIdentity): Promise<ForwardOutcome> {
		const { action, context } = payload;
		if (action.type !== 'post') return { kind: 'failed', reason: `not a post: ${action.type}` };
		// Forwards queued before headers were left out of them still carry their own.
		const headers = action.headers ?? this.headersFor(identity.actionKey, action.url);
		if (headers === undefined) return { kind: 'failed', reason: `no reply rule of the config posts to ${new URL(action.url).host} any more: its headers are not known` };
		const body = {
			Event: 'reply',
			...context.reply,
			Campaign: context.campaign ?? null,
			Run: context.run ?? null,
			Row: context.row ?? null,
			ReceivedAt: replyTime(context).toISOString(),
		};
		try {
			const res = await request(action.url, {
				method: 'POST',
				headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': identity.key },
				body: JSON.stringify(body),
				headersTimeout: 30_000,
				bodyTimeout: 30_000,
			});
			await res.body.dump();
			if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'sent' };
			const reason = `HTTP ${res.statusCode} from ${new URL(action.url).host}`;
			return transient(res.statusCode) ? { kind: 'retry', reason } : { kind: 'failed', reason };
		} catch (error) {
			return { kind: 'retry', reason: `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message}` };
		}
	}

	async close(): Promise<void> {}
}
