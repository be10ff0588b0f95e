import type { TrackedLink } from '../storage/ledger';
import type { NumberGuardRules } from './numberGuard';

/** What a validator (on the main thread or a worker thread) needs to judge a row; plain data. */
export interface RowRules extends NumberGuardRules {
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
	/** `--smart-encoding`: typographic characters become their GSM-7 equivalents. */
	smartEncoding?: boolean;
	/** `--track-links`: URLs become `{linkBase}/{token}` before the text is judged and counted. */
	linkBase?: string;
}

export interface RowInput {
	line: number;
	fields: string[];
}

export type RowVerdict =
	| {
			line: number;
			ok: true;
			to: string;
			text?: string;
			segments: number;
			timeZone?: string;
			/** A UCS-2 message's characters outside GSM-7, each once: why it costs more. */
			ucs2?: string;
			/** Segments the other way: with smart encoding when it is off, without it when on; absent when the same. */
			otherSegments?: number;
			/** `--track-links`: the text's tokens and the URLs they stand for. */
			links?: TrackedLink[];
			/** A variant campaign's row rendered with each of its texts, in order (variantJudge.ts). */
			variants?: VariantRendering[];
	  }
	| { line: number; ok: false; code: string; reason: string; to?: string };

/** One text of a variant campaign, rendered for one row. */
export interface VariantRendering {
	text?: string;
	segments: number;
	ucs2?: string;
}
