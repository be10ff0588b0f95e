import type { OutboxStore } from '../../../storage/daemonStore';
import { destinationOf } from './forwardDestination';
import type { QueuedForward } from './forwardPayload';

/** A receiver failing this long is named by /health: a blip is not worth an alert, an hour is. */
export const FAILING_FOR_MS = 3_600_000;

/**
 * The receivers (as the outbox counts them: `events`, `n8n`, `post https://...`) of
 * deliveries queued over an hour ago that failed and still wait for another attempt.
 */
export async function failingDestinations(
	store: Pick<OutboxStore, 'retryingSince'>,
	now: number,
): Promise<string[]> {
	const jobs = await store.retryingSince(now - FAILING_FOR_MS);
	return [...new Set(jobs.map((j) => destinationOf(j.payload as QueuedForward)))].sort();
}
