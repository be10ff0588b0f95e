import type { CampaignSettings } from './campaignSettings';

/**
 * A campaign's state. `draft` takes settings and recipients; `start` makes it `scheduled`
 * (its schedule ahead) or `sending`; it ends `finished`, `cancelled` or `failed`.
 */
export type CampaignState =
	| 'draft'
	| 'scheduled'
	| 'sending'
	| 'paused'
	| 'finished'
	| 'cancelled'
	| 'failed';

export const CAMPAIGN_STATES: readonly CampaignState[] = [
	'draft',
	'scheduled',
	'sending',
	'paused',
	'finished',
	'cancelled',
	'failed',
];
/** States a campaign does not leave. */
export const FINAL_CAMPAIGN_STATES: readonly CampaignState[] = ['finished', 'cancelled', 'failed'];

/** Recipients by what became of them (the ledger's row states) and what receipts and replies said. */
export interface CampaignCounts {
	recipients: number;
	pending: number;
	accepted: number;
	rejected: number;
	uncertain: number;
	invalid: number;
	duplicate: number;
	suppressed: number;
	/** Not sent: the number had had its frequency cap of messages (frequencyCap). */
	capped: number;
	cancelled: number;
	delivered: number;
	undelivered: number;
	replies: number;
}

export const CAMPAIGN_COUNT_NAMES: readonly (keyof CampaignCounts)[] = [
	'recipients',
	'pending',
	'accepted',
	'rejected',
	'uncertain',
	'invalid',
	'duplicate',
	'suppressed',
	'capped',
	'cancelled',
	'delivered',
	'undelivered',
	'replies',
];

export interface CampaignStatus {
	name: string;
	state: CampaignState;
	settings: CampaignSettings;
	/** ISO 8601. */
	createdAt: string;
	startedAt?: string;
	finishedAt?: string;
	/** Why it failed (or was cancelled), in a sentence. */
	reason?: string;
	counts: CampaignCounts;
	/** A campaign with variants: each text's figures, in the order given (`text` first). */
	variants?: VariantFigures[];
	/** Its winner once chosen: `index` 1-based (1 is `text`). */
	winner?: { index: number; by: string; byHand: boolean; decidedAt: string } | null;
}

export interface VariantFigures {
	text: string;
	rows: number;
	sent: number;
	delivered: number;
	failed: number;
	replies: number;
	/** Rows whose links a person followed; 0 while clicks are not tracked. */
	clicks: number;
	optOuts: number;
}

/** `PUT /api/campaigns/{name}`, `GET /api/campaigns/{name}`, start, pause, resume, cancel answer. */
export interface CampaignStatusAnswer {
	campaign: CampaignStatus;
}

/** `GET /api/campaigns` answer. */
export interface CampaignList {
	campaigns: { name: string; state: CampaignState }[];
}

/** `DELETE /api/campaigns/{name}` answer: the campaign gone, and the state it was in. */
export interface CampaignDeleted {
	deleted: { name: string; state: CampaignState };
}

/** `POST /api/campaigns/{name}/start` body: the page count expected, to catch a page lost on the way. */
export interface StartRequest {
	pages?: number;
}

export function emptyCampaignCounts(): CampaignCounts {
	return {
		recipients: 0,
		pending: 0,
		accepted: 0,
		rejected: 0,
		uncertain: 0,
		invalid: 0,
		duplicate: 0,
		suppressed: 0,
		capped: 0,
		cancelled: 0,
		delivered: 0,
		undelivered: 0,
		replies: 0,
	};
}
