import { request } from 'undici';
import { retryAfterMs } from '../../../../api';
import type { ForwardOutcome } from './forwardOutcome';
import type { EventForward } from './eventForward';

/** The URLs events go to, read from the config when each is sent. */
export interface EventTargets {
	/** Config `events`: the worker-wide URL and its headers. */
	worker(): { url: string; headers?: Record<string, string> } | undefined;
	/** A config campaign's own `events` URL. */
	campaignUrl(campaign: string): string | undefined;
}

/** A receiver's Retry-After is taken up to this; a longer one is read as this. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/** Answers that say "later": n8n answers 404 while its workflow is not active yet (a restart). */
function later(status: number): boolean {
	return status === 404 || status === 408 || status === 429 || status >= 500;
}

/**
 * POSTs an event (`{id, type, occurredAt, campaign?, data}`) with `Idempotency-Key: <id>`
 * on every attempt, so a receiver drops the repeat of an attempt whose answer was lost.
 * The worker-wide headers go to the worker-wide URL, and to a campaign's own URL only on
 * the same origin (scheme, host and port): they are often a receiver's secret, and a
 * campaign's URL may point anywhere.
 */
export class EventForwarder {
	constructor(private readonly targets: EventTargets) {}

	async send(payload: EventForward): Promise<ForwardOutcome> {
		const { action, event } = payload;
		const worker = this.targets.worker();
		const url = action.to === 'worker' ? worker?.url : (action.url ?? (event.campaign === undefined ? undefined : this.targets.campaignUrl(event.campaign)));
		if (url === undefined) {
			return { kind: 'failed', reason: action.to === 'worker' ? 'events is no longer in the config' : `campaign ${event.campaign ?? '(none)'} has no events URL in the config any more` };
		}
		const sameOrigin = worker !== undefined && new URL(worker.url).origin === new URL(url).origin;
		const headers = sameOrigin ? (worker.headers ?? {}) : {};
		const host = new URL(url).host;
		try {
			const res = await request(url, {
				method: 'POST',
				headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': event.id },
				body: JSON.stringify(event),
				headersTimeout: 30_000,
				bodyTimeout: 30_000,
			});
			await res.body.dump();
			if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'sent' };
			const reason = `HTTP ${res.statusCode} from ${host}`;
			return later(res.statusCode) ? { kind: 'retry', reason, retryAfterMs: cappedRetryAfter(res.headers['retry-after']) } : { kind: 'failed', reason };
		} catch (error) {
			return { kind: 'retry', reason: `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message}` };
		}
	}

	async close(): Promise<void> {}
}

function cappedRetryAfter(header: unknown): number | undefined {
	const ms = retryAfterMs(header);
	return ms === undefined ? undefined : Math.min(ms, MAX_RETRY_AFTER_MS);
}
