import type { CampaignEvent } from '../../../../../api';

/**
 * An event for an events URL (config `events`, or a campaign's own `events`), frozen when
 * it is queued. `to` says which URL: the worker-wide one, read from the config when it is
 * sent (its headers are often a receiver's secret, kept out of the database), or the
 * campaign's own: `url` when it came with the campaign (the campaign API stores it in
 * its settings), else the config campaign's, read when it is sent too.
 */
export interface EventForward {
	action: { type: 'event'; to: 'worker' | 'campaign'; url?: string };
	event: CampaignEvent;
}
