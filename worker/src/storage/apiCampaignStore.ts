import type { CampaignSettings } from '../../../api';
import type { CampaignSpec } from '../settings/campaignSpec';
import type { KeyedForward } from './daemonStore';

/**
 * Where an API campaign is in its life: `draft` takes settings and pages; `started` is in
 * the ledger (the start made its campaign there), whose phase, pause and cancel are the
 * campaign's, whoever asks; the workers run it. It ends `finished`, `cancelled` or `failed`
 * in the write that queues its campaign.finished: a cancel a run held is the ledger's
 * (CampaignRecord.cancelledBy) until that run, or the worker taking it up after a crash,
 * settles it.
 */
export type ApiCampaignState = 'draft' | 'started' | EndState;
export type EndState = 'finished' | 'cancelled' | 'failed';

export interface ApiCampaignRecord {
	name: string;
	settings: CampaignSettings;
	state: ApiCampaignState;
	/** How its recipients came: JSON pages or one CSV (not both). */
	source?: 'pages' | 'csv';
	/** SHA-256 of the CSV as uploaded, so the same upload again is harmless. */
	csvHash?: string;
	/** Unix milliseconds. */
	createdAt: number;
	startedAt?: number;
	finishedAt?: number;
	reason?: string;
}

/** One page of recipients as stored: its JSON, its hash, its columns in first-seen order. */
export interface StoredPage {
	page: number;
	/** SHA-256 of `body`: a page given again is the same page only with the same content. */
	hash: string;
	recipients: number;
	columns: string[];
	/** The recipients as a JSON array. */
	body: string;
}

export type PutPageOutcome =
	| { outcome: 'stored' | 'unchanged'; pages: number; recipients: number }
	| { outcome: 'not_found' | 'started' | 'page_conflict' }
	/** The campaign's recipients came the other way (CSV for a page, pages for a CSV). */
	| { outcome: 'other_source'; source: 'pages' | 'csv' };

/**
 * The campaigns made through the worker's API and their recipients' pages, kept in the
 * worker's database (SQLite, or the Postgres several workers share) so that whichever
 * worker runs a campaign finds them, and a restart loses none.
 */
export interface ApiCampaignStore {
	/** Creates it as a draft; an existing one is returned as it is, `created` false. */
	create(
		name: string,
		settings: CampaignSettings,
		at: number,
	): Promise<{ created: boolean; record: ApiCampaignRecord }>;
	campaign(name: string): Promise<ApiCampaignRecord | undefined>;
	list(): Promise<{ name: string; state: ApiCampaignState }[]>;
	/** Stores a page of a draft, idempotently by number: the same content again is `unchanged`, other content a `page_conflict`. */
	putPage(name: string, page: StoredPage, at: number): Promise<PutPageOutcome>;
	/** Stores a CSV's rows as pages 1..n in one transaction; the same CSV (by hash) again is `unchanged`. */
	putCsv(name: string, csvHash: string, pages: StoredPage[], at: number): Promise<PutPageOutcome>;
	/** The page numbers stored, in order, and the recipients in them. */
	pageTotals(name: string): Promise<{ pages: number[]; recipients: number }>;
	/** Each page's columns, in page order. */
	pageColumns(name: string): Promise<string[][]>;
	/**
	 * Replaces a stored page's content, its hash kept (`contact forget` blanking a number):
	 * the page given again as it was first is still the same page. False when it is gone.
	 */
	rewritePage(name: string, page: number, body: string): Promise<boolean>;
	/** Up to `limit` pages after `afterPage`, in page order. */
	pagesAfter(
		name: string,
		afterPage: number,
		limit: number,
	): Promise<{ page: number; body: string }[]>;
	/**
	 * Ends a campaign from one of `from` in one conditional statement, dropping its pages (the
	 * ledger has its recipients); false when it was in no state of `from` (another call or
	 * worker moved it first). `events` (its campaign.finished) are queued in the same
	 * transaction when it moved. A start is start()'s, which makes its ledger campaign.
	 */
	end(
		name: string,
		from: readonly ApiCampaignState[],
		to: EndState,
		at: number,
		reason?: string,
		events?: readonly KeyedForward[],
	): Promise<boolean>;
	/** What its status says of a started campaign's run (stopped, going again); undefined clears it. */
	setReason(name: string, at: number, reason?: string): Promise<void>;
	/**
	 * Starts a draft and makes its ledger campaign with `spec`, in one write; `events`
	 * (campaign.started) queued only by the write that started it. False when it was no draft.
	 */
	start(
		name: string,
		spec: CampaignSpec,
		at: number,
		events?: readonly KeyedForward[],
	): Promise<boolean>;
	/**
	 * Pauses a started campaign in one write, its ledger campaign's flag; `events`
	 * (campaign.paused) queued only by the write that paused it. False when it was not
	 * started or is paused already.
	 */
	pause(name: string, at: number, events?: readonly KeyedForward[]): Promise<boolean>;
	/** Resumes a paused campaign in one write; false when it was not paused. */
	resume(name: string, at: number): Promise<boolean>;
	/** Replaces the settings of a draft or a paused campaign not being cancelled; false otherwise. */
	changeSettings(name: string, settings: CampaignSettings, at: number): Promise<boolean>;
	/** The campaigns that ended (finished, cancelled or failed) before this time (Unix ms), the oldest first: retention's to prune. */
	endedBefore(before: number): Promise<string[]>;
	/** Deletes an ended campaign's record and whatever pages it left; false when there was none (or it has not ended). */
	remove(name: string): Promise<boolean>;
	/** Deletes a draft's record and its pages; false when there was none (or it has started). */
	removeDraft(name: string): Promise<boolean>;
	/** Campaigns in these states, oldest first. */
	campaignsIn(states: readonly ApiCampaignState[]): Promise<ApiCampaignRecord[]>;
	/** What the workers run, oldest first: the started campaigns not paused in their ledger, and any with a cancel their run left to settle. */
	campaignsToRun(): Promise<ApiCampaignRecord[]>;
	close(): Promise<void>;
}

export interface ApiCampaignRow {
	name: string;
	settings: string;
	state: string;
	source: string | null;
	csv_hash: string | null;
	created_at: number;
	started_at: number | null;
	finished_at: number | null;
	reason: string | null;
}

export function apiCampaignRecord(r: ApiCampaignRow): ApiCampaignRecord {
	return {
		name: r.name,
		settings: JSON.parse(r.settings) as CampaignSettings,
		state: r.state as ApiCampaignState,
		...(r.source !== null ? { source: r.source as 'pages' | 'csv' } : {}),
		...(r.csv_hash !== null ? { csvHash: r.csv_hash } : {}),
		createdAt: r.created_at,
		...(r.started_at !== null ? { startedAt: r.started_at } : {}),
		...(r.finished_at !== null ? { finishedAt: r.finished_at } : {}),
		...(r.reason !== null ? { reason: r.reason } : {}),
	};
}
