import type { ForwardPayload } from './forwardPayload';

/**
 * What one attempt at a forward came to:
 * - `sent`: done;
 * - `retry`: it did not go, and may later (SMTP down, API 5xx or 429);
 * - `failed`: it did not go, and never will as it stands (a refused address or number);
 * - `uncertain`: it may have gone, and sending again could deliver it twice.
 */
export type ForwardOutcome =
	| { kind: 'sent' }
	| { kind: 'retry'; reason: string; retryAfterMs?: number }
	| { kind: 'failed'; reason: string }
	| { kind: 'uncertain'; reason: string };

export interface Forwarder {
	send(payload: ForwardPayload, identity: ForwardIdentity): Promise<ForwardOutcome>;
	close(): Promise<void>;
}

/** The same on every attempt, so a receiver can recognise a repeat. */
export interface ForwardIdentity {
	id: number;
	/** `<MessageSid>.<rule>.<action>`. */
	key: string;
	/** `<rule>.<action>`: which action of the config asked for it. */
	actionKey: string;
}
