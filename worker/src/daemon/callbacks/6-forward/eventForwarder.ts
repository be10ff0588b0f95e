import type { SigningConfig } from '../../../config/signingConfig';
import type { ForwardOutcome } from './forwardOutcome';
import type { EventForward } from './eventForward';
import { postIdempotent } from './idempotentPost';
import { outboundRefusal } from '../../outbound/outboundUrl';

/** The URLs events go to, read from the config when each is sent. */
export interface EventTargets {
	/** Config `events`: the worker-wide URL and its headers. */
	worker(): { url: string; headers?: Record<string, string>; signing?: SigningConfig } | undefined;
	/** A config campaign's own `events` URL. */
	campaignUrl(campaign: string): string | undefined;
	/** Config `outbound.allow`: the inner hosts an API campaign's URL may reach. */
	outboundAllow?(): readonly string[];
	/** What signs a campaign's own events: its own `signing` (config or campaign API), else the worker-wide one. */
	campaignSigning?(campaign: string | undefined): Promise<SigningConfig | undefined>;
}

/** A receiver's Retry-After is taken up to this; a longer one is read as this. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * POSTs an event (`{id, type, occurredAt, campaign?, data}`) with `Idempotency-Key: <id>`
 * on every attempt, so a receiver drops the repeat of an attempt whose answer was lost.
 * The worker-wide headers go to the worker-wide URL only: they are often a receiver's
 * secret, and a campaign's URL, even on the same n8n, is another workflow's. An API
 * campaign's URL (the one the event carries) is checked again as it is sent: its name may
 * resolve to an inner address now (outboundRefusal).
 */
export class EventForwarder {
	constructor(private readonly targets: EventTargets) {}

	async send(payload: EventForward): Promise<ForwardOutcome> {
		const { action, event } = payload;
		const worker = this.targets.worker();
		const url =
			action.to === 'worker'
				? worker?.url
				: (action.url ??
					(event.campaign === undefined ? undefined : this.targets.campaignUrl(event.campaign)));
		if (url === undefined) {
			return {
				kind: 'failed',
				reason:
					action.to === 'worker'
						? 'events is no longer in the config'
						: `campaign ${event.campaign ?? '(none)'} has no events URL in the config any more`,
			};
		}
		if (action.to === 'campaign' && action.url !== undefined) {
			const refused = await outboundRefusal(action.url, this.targets.outboundAllow?.() ?? []);
			if (refused)
				return {
					kind: refused.unresolved ? 'retry' : 'failed',
					reason: `events ${refused.reason}`,
				};
		}
		const headers = action.to === 'worker' ? (worker?.headers ?? {}) : {};
		const signing =
			action.to === 'worker'
				? worker?.signing
				: await this.targets.campaignSigning?.(event.campaign);
		// n8n answers 404 while its workflow is not active yet (a restart).
		return postIdempotent({
			url,
			headers,
			body: event,
			key: event.id,
			notFoundIsLater: true,
			maxRetryAfterMs: MAX_RETRY_AFTER_MS,
			signing,
		});
	}

	async close(): Promise<void> {}
}
