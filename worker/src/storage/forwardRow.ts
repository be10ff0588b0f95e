import type { ForwardJob, ForwardState, StoredPayload } from './daemonStore';

/** A row of the forwards table, as both stores read it. */
export interface ForwardRow {
	id: number;
	event_key: string;
	action_key: string;
	payload: string;
	state: ForwardState;
	attempts: number;
	next_at: number;
	last_error: string | null;
}

export function forwardJob(r: ForwardRow): ForwardJob {
	return {
		id: r.id,
		eventKey: r.event_key,
		actionKey: r.action_key,
		payload: JSON.parse(r.payload) as StoredPayload,
		state: r.state,
		attempts: r.attempts,
		nextAt: r.next_at,
		lastError: r.last_error ?? undefined,
	};
}
