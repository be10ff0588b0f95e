import type { Ledger, PendingRow } from '../storage/ledger';
import type { TokenBucket } from '../pacing/tokenBucket';

/** Rows marked submitting under the chunk's number, ready to be sent in one request. */
export interface Chunk {
	chunk: number;
	rows: PendingRow[];
	/** Where the store tells commit from disk: resolves once the mark is on disk, and the request waits for it. */
	durable?: Promise<void>;
}

/**
 * What a taker answers besides a chunk: look again (`again`); look again after reading
 * pause and cancel anew, the ledger having refused a mark (`changed`); or nothing is left
 * for this process to send (`done`).
 */
export type Take = Chunk | 'again' | 'changed' | 'done';

/** The chunks this process has on their way. */
export interface Inflight {
	readonly size: number;
	/** Waits until one of them is settled. */
	one(): Promise<void>;
}

export interface TakeContext {
	ledger: Ledger;
	campaign: string;
	chunkSize: number;
	/** This process's pace: messages per second, 0 for no limit. */
	bucket: TokenBucket;
	/** The run's messages per second across every process sending it; 0 for no limit. */
	rate: number;
	inflight: Inflight;
	pollMs: number;
	signal?: AbortSignal;
	/**
	 * A wait for the rate, ended early by a stop, a pause or a cancel (at 0.01 messages a second
	 * a chunk may wait minutes); true when it was waited out whole.
	 */
	pace(ms: number): Promise<boolean>;
}

/** One send stage's taker: hands out chunks and counts the rows it settled without sending. */
export interface ChunkTaker {
	next(): Promise<Take>;
	/** Rows taken whose number is on the suppression list now: settled as suppressed, never sent. */
	readonly suppressed: number;
}

/**
 * Where a run's chunks come from, chosen where the store is opened: local chunks when one
 * process sends the run, chunks claimed from a shared ledger when several send it together.
 * The engine asks this, never which store it has.
 */
export interface ChunkSource {
	/** Several processes send the run together: one that holds it is joined, not refused. */
	readonly together: boolean;
	/**
	 * Rows left submitting when a run stopped: uncertain now (their request may have left).
	 * Sending together, chunks on their way belong to live processes, or are settled by the
	 * lease of the one that died: none of them is this run's to recover.
	 */
	recover(ledger: Ledger, campaign: string): Promise<number>;
	taker(context: TakeContext): ChunkTaker;
}
