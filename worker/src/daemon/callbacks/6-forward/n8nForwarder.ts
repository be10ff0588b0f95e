import type { SigningConfig } from '../../../config/signingConfig';
import type { ForwardIdentity, ForwardOutcome } from './forwardOutcome';
import type { CallbackForward } from './forwardPayload';
import { postIdempotent } from './idempotentPost';

/** Where callbacks go in n8n: the config's `forward.n8n`, read when each is sent. */
export interface N8nTarget {
	url: string;
	headers?: Record<string, string>;
	/** `forward.n8n.signing`, else the worker-wide `signing`. */
	signing?: SigningConfig;
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
		return postIdempotent({
			url: target.url,
			headers: target.headers,
			body: payload.event.data,
			key: identity.key,
			receiver: 'n8n at ',
			notFoundIsLater: true,
			signing: target.signing,
		});
	}

	async close(): Promise<void> {}
}
