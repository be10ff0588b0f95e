/** A token's stored link: where it redirects, and the row it was made for. */
export interface LinkTarget {
	url: string;
	/** Unix milliseconds. */
	createdAt: number;
	campaign: string;
	line: number;
}

/** A request that reached a token, as the intake keeps it. */
export interface ClickRecord {
	/** The intake event's key: the click is stored once however often it is fed. */
	key: string;
	token: string;
	/** Unix milliseconds. */
	at: number;
	/** A HEAD, or a preview's or scanner's user agent. */
	prefetch: boolean;
}

/** A click as stored; `first`: the recipient's first real click on this link. */
export interface RecordedClick extends LinkTarget {
	prefetch: boolean;
	first: boolean;
	/** The row's number, for the click event to the sender's own automation. */
	to?: string;
}

/** `campaign status`'s figures: recipients who clicked at least once, all clicks, previews. */
export interface LinkCounts {
	clicked: number;
	clicks: number;
	prefetches: number;
}

/** One click as `contact show` lists it; `url` is gone once retention pruned its token. */
export interface RowClick {
	at: number;
	url?: string;
	prefetch: boolean;
}

/** Tracked links and their clicks, in the ledger's database (SQLite or Postgres). */
export interface LinkStore {
	target(token: string): Promise<LinkTarget | undefined>;
	/**
	 * Stores a click against its token's row; undefined when the token is unknown (forgotten,
	 * pruned). A real click within `scanWindowMs` after the message was sent or around its
	 * receipt is kept as a prefetch: carriers fetch links as they deliver.
	 */
	recordClick(click: ClickRecord, scanWindowMs: number): Promise<RecordedClick | undefined>;
	counts(campaign: string): Promise<LinkCounts>;
	/** Real clicks per URL, most clicked first. */
	perLink(campaign: string): Promise<{ url: string; clicked: number; clicks: number }[]>;
	/** Real clicks by the bucket (Unix seconds of its start) they came in. */
	clickBuckets(campaign: string, bucketSeconds: number): Promise<{ at: number; count: number }[]>;
	/**
	 * The lines (CSV rows) of the campaign's recipients who clicked at least once, previews
	 * left out: what a ranking of variants by clicks groups by its own row attribute.
	 */
	clickedLines(campaign: string): Promise<number[]>;
	rowClicks(campaign: string, line: number): Promise<RowClick[]>;
	/** Retention: tokens made before `before` (Unix ms) are deleted; their links then answer 404. */
	pruneLinks(before: number): Promise<number>;
}
