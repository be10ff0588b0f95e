import type { CampaignCounts } from './campaignStatus';

export type CampaignEventType =
	| 'campaign.started'
	| 'campaign.finished'
	| 'campaign.paused'
	| 'campaign.variant_decided'
	| 'reply'
	| 'optout'
	| 'optout.review'
	| 'click';

export const CAMPAIGN_EVENT_TYPES: readonly CampaignEventType[] = [
	'campaign.started',
	'campaign.finished',
	'campaign.paused',
	'campaign.variant_decided',
	'reply',
	'optout',
	'optout.review',
	'click',
];

/** `campaign.finished` data. */
export interface CampaignFinishedData {
	state: 'finished' | 'cancelled' | 'failed';
	counts: CampaignCounts;
}

/** `campaign.variant_decided` data: `winner` is 1-based (1 is the campaign's text); a rate per text, null where none was sent. */
export interface VariantDecidedData {
	winner: number;
	by: 'delivered' | 'replies' | 'clicks' | 'optouts';
	byHand: boolean;
	rates: (number | null)[];
	decidedAt: string;
	/** Rows of the rest, now sent with the winner's text. */
	rest: number;
	run?: string;
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

/** A reply that asked to stop in words of its own, held for a person (`cloudtel optouts review`). */
export interface OptOutReviewEventData {
	number: string;
	/** The phrase of the worker's list it matched, such as "remove me". */
	phrase: string;
	text: string;
	messageSid: string;
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
