import { createHash } from 'node:crypto';

/** What consent_events records, beside `opt-out` and `opt-in` (addSuppression, removeSuppression). */
export type ConsentKind = 'review' | 'review-rejected' | 'confirmation' | 'consent';

/** One thing that happened with a number: a message, its receipt, a reply, a click on a tracked link, an opt-out or an opt-in. */
export interface ContactEvent {
	/** Unix milliseconds; undefined for a message never sent. */
	at?: number;
	kind: 'message' | 'receipt' | 'reply' | 'click' | 'opt-out' | 'opt-in' | ConsentKind;
	campaign?: string;
	line?: number;
	/** A message's row status, a receipt's Delivered or Failed. */
	status?: string;
	/** A message's or reply's text; a click's URL. */
	text?: string;
	messageSid?: string;
	/** An ErrorCode, an opt-out's reason, a row's error; `prefetch` for a click a preview made. */
	detail?: string;
}

export interface ContactHistory {
	number: string;
	/** On the suppression list now, and why. */
	suppressed?: { reason: string; since: number };
	events: ContactEvent[];
}

export interface ForgetResult {
	/** Rows erased, with their texts, receipts and replies, across campaigns. */
	rows: number;
	campaigns: string[];
	/** The suppression kept under the number's hash, when there was one. */
	suppressionKept: boolean;
	/** The worker's stored callbacks and forwards that named the number. */
	callbacks: number;
	/** The database rewritten so no byte of it is left (SqlDb.reclaim); false when another process kept that from being wholly done. */
	reclaimed: boolean;
}

/**
 * What a forgotten number is kept as on the suppression list: its SHA-256, so a list that
 * brings it back still finds it suppressed while the ledger no longer holds the number.
 * One-way, but over the few billion numbers of a country: it proves a guess, it does not
 * reveal a number by itself.
 */
export function forgottenKey(e164: string): string {
	return `sha256:${createHash('sha256').update(e164).digest('hex')}`;
}

export function isForgottenKey(entry: string): boolean {
	return entry.startsWith('sha256:');
}

/** Events in time order; a message never sent last. */
export function inTimeOrder(events: ContactEvent[]): ContactEvent[] {
	return events.sort(
		(a, b) => (a.at ?? Number.MAX_SAFE_INTEGER) - (b.at ?? Number.MAX_SAFE_INTEGER),
	);
}
