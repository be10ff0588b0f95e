import { Agent, request } from 'undici';
import {
	callbackQuery,
	type DeliveryReceiptCallback,
	type ReplyCallback,
	type WebhookMethod,
} from '../../../api';
import type { CallbackKind, Outbox } from './outbox';

export interface DispatcherOptions {
	/** contract.md: 3 attempts. */
	attempts?: number;
	/** First retry waits this long, then doubles. */
	backoffMs?: number;
	timeoutMs?: number;
	/** Connections kept open to one receiver; more callbacks than this wait their turn. */
	connectionsPerReceiver?: number;
}

function withQuery(url: string, query: Record<string, string>): string {
	const u = new URL(url);
	for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
	return u.toString();
}

/**
 * Calls the user's webhooks. A callback that does not answer 2xx is tried again, backing
 * off, up to the attempt limit; every attempt is logged in the outbox. Connections to a
 * receiver are kept alive and shared, as a provider's callback fleet does: a burst of a
 * thousand replies costs a few dozen connections, not a thousand handshakes (and fetch's
 * web streams cost the sandbox more CPU than the receiver it was meant to test).
 */
export class CallbackDispatcher {
	private readonly pending = new Set<Promise<void>>();
	private closed = false;
	private readonly attempts: number;
	private readonly backoffMs: number;
	private readonly agent: Agent;

	constructor(
		private readonly outbox: Outbox,
		options: DispatcherOptions = {},
	) {
		this.attempts = options.attempts ?? 3;
		this.backoffMs = options.backoffMs ?? 500;
		const timeoutMs = options.timeoutMs ?? 5000;
		this.agent = new Agent({
			connections: options.connectionsPerReceiver ?? 32,
			connectTimeout: timeoutMs,
			headersTimeout: timeoutMs,
			bodyTimeout: timeoutMs,
			keepAliveTimeout: 4000,
		});
	}

	send(
		kind: CallbackKind,
		url: string,
		method: WebhookMethod,
		payload: DeliveryReceiptCallback | ReplyCallback,
	): void {
		const job = this.run(kind, url, method, payload).finally(() => this.pending.delete(job));
		this.pending.add(job);
	}

	private async run(
		kind: CallbackKind,
		url: string,
		method: WebhookMethod,
		payload: DeliveryReceiptCallback | ReplyCallback,
	): Promise<void> {
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
						? await request(withQuery(url, callbackQuery(payload)), { dispatcher: this.agent })
						: await request(url, {
								method: 'POST',
								headers: { 'content-type': 'application/json' },
								body: JSON.stringify(payload),
								dispatcher: this.agent,
							});
				await response.body.dump().catch(() => undefined);
				const ok = response.statusCode >= 200 && response.statusCode < 300;
				this.outbox.callbacks.push({ ...entry, StatusCode: response.statusCode, Delivered: ok });
				if (ok) return;
			} catch (error) {
				const e = error as { code?: string; cause?: { code?: string }; name?: string };
				this.outbox.callbacks.push({
					...entry,
					Error: e.cause?.code ?? e.code ?? e.name ?? String(error),
				});
			}
			if (attempt < this.attempts)
				await new Promise((r) => setTimeout(r, this.backoffMs * 2 ** (attempt - 1)));
		}
	}

	/** Stops retrying and waits for calls already on the wire. */
	async close(): Promise<void> {
		this.closed = true;
		await Promise.allSettled([...this.pending]);
		await this.agent.close();
	}
}
