import type { CampaignCounts } from './campaignStatus';

export type CampaignEventType =
	| 'campaign.started'
	| 'campaign.finished'
	| 'campaign.paused'
	| 'reply'
	| 'optout'
	| 'click';

export const CAMPAIGN_EVENT_TYPES: readonly CampaignEventType[] = [
	'campaign.started',
	'campaign.finished',
	'campaign.paused',
	'reply',
	'optout',
	'click',
];

/** `campaign.finished` data. */
export interface CampaignFinishedData {
	state: 'finished' | 'cancelled' | 'failed';
	counts: CampaignCounts;
}

export interface ReplyEventData {
	from: string;
	to: string;
	text: string;
	messageSid: string;
	campaign?: string;
}

/** `click`: a recipient's first real click on one of a campaign's tracked links (previews never). */
export interface ClickEventData {
	/** The recipient's number. */
	number: string;
	url: string;
	/** The recipient's CSV line (or API recipient's row) in the campaign. */
	row: number;
	/** The cron run, for a config campaign's. */
	run?: string;
}

export interface OptOutEventData {
	number: string;
	keyword: string;
}

/**
 * What the worker POSTs to an events URL, once each (through its outbox), with header
 * `Idempotency-Key: <id>` stable across retries.
 */
export interface CampaignEvent<D = Record<string, unknown>> {
	/** `campaign.finished:<campaign>` and the like: the same event always has the same id. */
	id: string;
	type: CampaignEventType;
	/** ISO 8601. */
	occurredAt: string;
	campaign?: string;
	data: D;
}

export function isCampaignEvent(value: unknown): value is CampaignEvent {
	if (typeof value !== 'object' || value === null) return false;
	const v = value as Record<string, unknown>;
	return (
		typeof v.id === 'string' &&
		typeof v.type === 'string' &&
		(CAMPAIGN_EVENT_TYPES as readonly string[]).includes(v.type) &&
		typeof v.occurredAt === 'string' &&
		typeof v.data === 'object' &&
		v.data !== null
	);
}
