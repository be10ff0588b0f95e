import { Agent, request } from 'undici';
import { retryAfterMs } from '../../../../../api';
import type { SigningConfig } from '../../../config/signingConfig';
import type { ForwardOutcome } from './forwardOutcome';
import { webhookHeaders } from './webhookSignature';

export interface IdempotentPost {
	url: string;
	headers?: Record<string, string>;
	body: unknown;
	/** The same on every attempt, so a receiver drops the repeat of an attempt whose answer was lost. */
	key: string;
	/** Names the receiver in a refusal's reason (`n8n at ` for n8n); the URL's host follows. */
	receiver?: string;
	/** n8n answers 404 while its workflow is not active yet (a restart): "later", not "never". */
	notFoundIsLater?: boolean;
	/** A receiver's Retry-After is taken, up to this; without it, the outbox's own back-off rules. */
	maxRetryAfterMs?: number;
	/** Signs each attempt (Standard Webhooks, with `key` as webhook-id); unsigned without. */
	signing?: SigningConfig;
}

/**
 * A receiver that does not take the connection within this is tried again later (undici's
 * default is 10 s): a forward waits no longer on an address that drops packets.
 */
const CONNECT_TIMEOUT_MS = 3_000;
const dispatcher = new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } });

/** Answers that say "later" rather than "never". */
function later(status: number, notFoundIsLater: boolean): boolean {
	return (notFoundIsLater && status === 404) || status === 408 || status === 429 || status >= 500;
}

/**
 * One attempt at POSTing JSON with an Idempotency-Key, as every forward by HTTP makes it:
 * 2xx is sent, a "later" answer or a network fault is retried, any other answer is final.
 */
export async function postIdempotent(post: IdempotentPost): Promise<ForwardOutcome> {
	try {
		const body = JSON.stringify(post.body);
		const res = await request(post.url, {
			method: 'POST',
			headers: {
				...post.headers,
				'content-type': 'application/json',
				'idempotency-key': post.key,
				...webhookHeaders(post.signing, post.key, body),
			},
			body,
			headersTimeout: 30_000,
			bodyTimeout: 30_000,
			dispatcher,
		});
		await res.body.dump();
		if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'sent' };
		const reason = `HTTP ${res.statusCode} from ${post.receiver ?? ''}${new URL(post.url).host}`;
		if (!later(res.statusCode, post.notFoundIsLater ?? false)) return { kind: 'failed', reason };
		const ms =
			post.maxRetryAfterMs === undefined ? undefined : retryAfterMs(res.headers['retry-after']);
		return ms === undefined
			? { kind: 'retry', reason }
			: { kind: 'retry', reason, retryAfterMs: Math.min(ms, post.maxRetryAfterMs!) };
	} catch (error) {
		return {
			kind: 'retry',
			reason: `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message}`,
		};
	}
}
