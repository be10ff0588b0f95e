/** What a validator (on the main thread or a worker thread) needs to judge a row; plain data. */
export interface RowRules {
	campaign: string;
	header: string[];
	toIndex: number;
	text: string;
	from?: string;
	defaultCountry?: string;
	/** Index of the per-row time-zone column, when there is one. */
	timeZoneIndex?: number;
	/** IANA zone for rows whose time-zone cell is blank. */
	defaultTimeZone?: string;
	/** Dry runs only count segments; they need no text back. */
	wantText: boolean;
}

export interface RowInput {
	line: number;
	fields: string[];
}

export type RowVerdict =
	| { line: number; ok: true; to: string; text?: string; segments: number; timeZone?: string }
	| { line: number; ok: false; code: string; reason: string; to?: string };
