import type { Reporter } from '../../../campaign/reporter';
import type { JsonLogger } from '../../jsonLogger';
import type { CampaignEvents, EventRun } from './campaignEvents';

/**
 * A run's reporter that queues `campaign.variant_decided` when the engine reports its
 * decision; everything else goes on to `inner`. The event's id is the run's: queued twice
 * (a decision stored, the worker killed before the event), it goes once.
 */
export function withVariantEvent(
	inner: Reporter,
	events: CampaignEvents | undefined,
	run: EventRun,
	log: JsonLogger,
): Reporter {
	if (!events || (!events.enabled && run.url === undefined)) return inner;
	return {
		event(name, fields, text) {
			inner.event(name, fields, text);
			if (name !== 'variant-decided') return;
			// The event names its campaign already; the engine's field would repeat the run's name.
			const data: Record<string, unknown> = { ...fields };
			delete data.campaign;
			void events
				.queue(events.variantDecidedForwards(run, Date.now(), data))
				.catch((error: Error) =>
					log.error('campaign.variant_decided not queued: the store does not answer', { error }),
				);
		},
		rowError: (line, code, reason) => inner.rowError(line, code, reason),
		progress: (p) => inner.progress(p),
		summary: (s) => inner.summary(s),
		close: () => inner.close(),
	};
}
