import type { ForwardJob } from '../../../storage/daemonStore';
import { isCallbackForward, isEventForward, type QueuedForward } from './forwardPayload';

/**
 * Whether a delivery by HTTP (an event, a forward to n8n, a post) that failed again has
 * been failing longer than `maxAgeMs` since it was queued: it is then retried no more and
 * marked dead, kept for `cloudtel events replay`. An SMS or an e-mail is never dead.
 */
export function isDeadDelivery(
	job: ForwardJob,
	now: number,
	maxAgeMs: number | undefined,
): boolean {
	if (maxAgeMs === undefined || job.createdAt === undefined) return false;
	const payload = job.payload as QueuedForward;
	const http =
		isEventForward(payload) || isCallbackForward(payload) || payload.action.type === 'post';
	return http && now - job.createdAt >= maxAgeMs;
}
