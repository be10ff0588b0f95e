import { callbackQuery, type DeliveryReceiptCallback, type ReplyCallback, type WebhookMethod } from '../../../api';
import type { CallbackKind, Outbox } from './outbox';

export interface DispatcherOptions {
	/** contract.md: 3 attempts. */
	attempts?: number;
	/** First retry waits this long, then doubles. */
	backoffMs?: number;
	timeoutMs?: number;
}

function withQuery(url: string, query: Record<string, string>): string {
	const u = new URL(url);
	for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
	return u.toString();
}

/**
 * Calls the user's webhooks. A callback that does not answer 2xx is tried again, backing
 * off, up to the attempt limit; every attempt is logged in the outbox.
 */
export class CallbackDispatcher {
	private readonly pending = new Set<Promise<void>>();
	private closed = false;
	private readonly attempts: number;
	private readonly backoffMs: number;
	private readonly timeoutMs: number;

	constructor(
		private readonly outbox: Outbox,
		options: DispatcherOptions = {},
	) {
		this.attempts = options.attempts ?? 3;
		this.backoffMs = options.backoffMs ?? 500;
		this.timeoutMs = options.timeoutMs ?? 5000;
	}

	send(kind: CallbackKind, url: string, method: WebhookMethod, payload: DeliveryReceiptCallback | ReplyCallback): void {
		const job = this.run(kind, url, method, payload).finally(() => this.pending.delete(job));
		this.pending.add(job);
	}

	private async run(kind: CallbackKind, url: string, method: WebhookMethod, payload: DeliveryReceiptCallback | ReplyCallback): Promise<void> {
		for (let attempt = 1; attempt <= this.attempts && !this.closed; attempt++) {
			const entry = {
				Kind: kind,
				AccountSid: payload.AccountSid,
				MessageSid: payload.MessageSid,
				Url: url,
				Method: method,
				Attempt: attempt,
				At: Date.now(),
				Delivered: false,
				Payload: { ...payload } as Record<string, unknown>,
			};
			try {
				const response =
					method === 'GET'
						? await fetch(withQuery(url, callbackQuery(payload)), { signal: AbortSignal.timeout(this.timeoutMs) })
						: await fetch(url, {
								method: 'POST',
								headers: { 'content-type': 'application/json' },
								body: JSON.stringify(payload),
								signal: AbortSignal.timeout(this.timeoutMs),
							});
				await response.arrayBuffer().catch(() => undefined);
				this.outbox.callbacks.push({ ...entry, StatusCode: response.status, Delivered: response.ok });
				if (response.ok) return;
			} catch (error) {
				const cause = (error as { cause?: { code?: string } }).cause?.code;
				this.outbox.callbacks.push({ ...entry, Error: cause ?? (error as Error).name ?? String(error) });
			}
			if (attempt < this.attempts) await new Promise((r) => setTimeout(r, this.backoffMs * 2 ** (attempt - 1)));
		}
	}

	/** Stops retrying and waits for calls already on the wire. */
	async close(): Promise<void> {
		this.closed = true;
		await Promise.allSettled([...this.pending]);
	}
}
