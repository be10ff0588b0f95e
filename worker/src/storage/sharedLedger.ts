import type { PendingRow } from './ledger';

/** A chunk taken by one worker: its rows, marked submitting under its number. */
export interface ClaimedChunk {
	chunk: number;
	rows: PendingRow[];
	/** Rows taken on the way whose number is now on the suppression list: settled as suppressed. */
	suppressed: number;
}

/**
 * What several workers sending one run together need beyond the Ledger: rows taken by
 * exactly one of them, a rate held for the run as a whole, and a way to tell that chunks
 * of others are still on their way. Postgres only.
 */
export interface SharedLedger {
	/** The next pending rows in line order that no other worker holds, marked submitting in the same transaction. */
	claimChunk(name: string, limit: number): Promise<ClaimedChunk>;
	/** Takes the next slot of the campaign's rate for `count` messages; returns how many ms to wait before sending. */
	pace(name: string, count: number, perSecond: number): Promise<number>;
	/** Chunks of the campaign on their way, whoever sent them. */
	submissionsInFlight(name: string): Promise<number>;
}
