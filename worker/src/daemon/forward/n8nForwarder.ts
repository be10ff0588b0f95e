import { request } from 'undici';
import type { ForwardIdentity, ForwardOutcome } from './forwardOutcome';
import type { CallbackForward } from './forwardPayload';

/** Where callbacks go in n8n: the config's `forward.n8n`, read when each is sent. */
export interface N8nTarget {
	url: string;
	headers?: Record<string, string>;
}

/**
 * Hands a callback on to the CloudTel Trigger of an n8n, as the provider sent it (the
 * trigger reads it as it reads the provider's), with the event key (`receipt:<MessageSid>`,
 * `reply:<MessageSid>`) as Idempotency-Key on every attempt. The worker stored the callback
 * once and forwards it until n8n answers 2xx, so n8n gets each receipt and reply once, from
 * one place, however many webhook processes and provider retries there are. A 404 is taken
 * as "later": n8n answers it while the workflow is not (yet) active, as during a restart.
 */
export class N8nForwarder {
	constructor(private readonly target: () => N8nTarget | undefined) {}

	async send(payload: CallbackForward, identity: ForwardIdentity): Promise<ForwardOutcome> {
		const target = this.target();
		if (!target) return { kind: 'failed', reason: 'forward.n8n is no longer in the config' };
		const host = new URL(target.url).host;
		try {
			const res = await request(target.url, {
				method: 'POST',
				headers: { ...target.headers, 'content-type': 'application/json', 'idempotency-key': identity.key },
				body: JSON.stringify(payload.event.data),
				headersTimeout: 30_000,
				bodyTimeout: 30_000,
			});
			await res.body.dump();
			if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'sent' };
			const reason = `HTTP ${res.statusCode} from n8n at ${host}`;
			const later = res.statusCode === 404 || res.statusCode === 408 || res.statusCode === 429 || res.statusCode >= 500;
			return later ? { kind: 'retry', reason } : { kind: 'failed', reason };
		} catch (error) {
			return { kind: 'retry', reason: `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message}` };
		}
	}

	async close(): Promise<void> {}
}
