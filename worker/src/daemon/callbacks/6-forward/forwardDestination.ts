import { isCallbackForward, isEventForward, type QueuedForward } from './forwardPayload';

/**
 * The receiver a forward goes to, as the outbox counts its attempts: an URL's origin, or
 * n8n, the SMTP server, the provider. A receiver that hangs holds only its own attempts.
 */
export function destinationOf(payload: QueuedForward): string {
	if (isCallbackForward(payload)) return 'n8n';
	if (isEventForward(payload)) {
		const { action, event } = payload;
		if (action.url !== undefined) return `events ${originOf(action.url)}`;
		return action.to === 'worker' ? 'events' : `events of ${event.campaign ?? ''}`;
	}
	const action = payload.action;
	if (action.type === 'post') return `post ${originOf(action.url)}`;
	return action.type;
}

function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
}
