import type { CallbackEvent } from '../../../api';

/** A request that reached a tracked link (daemon/http/linkRoutes.ts): kept like a callback, spooled while the store is down. */
export interface LinkClickEvent {
	kind: 'click';
	data: {
		Token: string;
		/** Unix milliseconds. */
		At: number;
		/** A HEAD, or a preview's or scanner's user agent. */
		Prefetch: boolean;
	};
}

/** What the callback intake takes: the provider's callbacks, and clicks on tracked links. */
export type IntakeEvent = CallbackEvent | LinkClickEvent;

export interface StoredEvent {
	key: string;
	event: IntakeEvent;
	receivedAt: number;
}

/**
 * A forward's way through the outbox. `sending` is written before the attempt; one found
 * after a crash was cut off mid-attempt.
 */
export const FORWARD_STATES = ['pending', 'sending', 'sent', 'failed', 'uncertain'] as const;

/** `dead`: a delivery by HTTP that failed past `events.maxAge`; counted only once there is one. */
export type ForwardState = (typeof FORWARD_STATES)[number] | 'dead';

/**
 * A forward as storage sees it: JSON it keeps, of which it reads only the kind (its `kind`
 * column; an SMS's claim is synced). What the rest means is the daemon's
 * (daemon/callbacks/6-forward/forwardPayload.ts, QueuedForward).
 */
export interface StoredPayload {
	action: { type: string };
}

export interface NewForward {
	/** Which rule and action asked for it: `<rule>.<action>`, unique per event. */
	actionKey: string;
	payload: StoredPayload;
}

export interface ForwardJob extends NewForward {
	id: number;
	eventKey: string;
	state: ForwardState;
	attempts: number;
	nextAt: number;
	lastError?: string;
	/** When it was queued and last changed (Unix ms). */
	createdAt?: number;
	updatedAt?: number;
}

/** A forward with the event it belongs to: unique by the two keys, so queuing it again changes nothing. */
export interface KeyedForward extends NewForward {
	eventKey: string;
}

/** An event whose effects are done, with the forwards it asks for. */
export interface CompletedEvent {
	key: string;
	forwards: NewForward[];
}

export interface CampaignRun {
	run: string;
	campaign: string;
	startedAt: number;
	finishedAt?: number;
	outcome?: string;
}

/** The callback intake's and its processor's: events stored as they arrive, then processed. */
export interface EventStore {
	/** Durable when it resolves. False when this MessageSid and event were already stored. */
	recordEvent(key: string, event: IntakeEvent, receivedAt: number): Promise<boolean>;
	unprocessedEvents(limit: number): Promise<StoredEvent[]>;
	/** Queues the events' forwards and marks them processed, in one transaction. */
	completeEvents(events: CompletedEvent[], at: number): Promise<void>;
	/** Events stored but not yet processed. */
	waitingEvents(): Promise<number>;
	/**
	 * Runs a processing pass while no other worker sharing the store runs one, or answers
	 * 'busy': each stored event is processed by one worker, in the order it came.
	 */
	processingAlone<T>(pass: () => Promise<T>): Promise<T | 'busy'>;
}

/** The outbox's: forwards on their way. */
export interface OutboxStore {
	/** Queues forwards no callback asks for (campaign events); one already queued under its keys is left as it is. */
	queueForwards(forwards: KeyedForward[], at: number): Promise<void>;
	/**
	 * Takes up to `limit` forwards due at `now`, oldest first, and marks them `sending`
	 * (attempts counted), in one statement: no other worker can take them too. Durable
	 * before it returns when one of them is an SMS, whose attempt must never be repeated
	 * after a crash; an e-mail or a post lost with a power cut is sent again, carrying the
	 * same Message-ID or Idempotency-Key, exactly as one interrupted mid-attempt is.
	 */
	claimDue(now: number, limit: number): Promise<ForwardJob[]>;
	/** When the next pending forward falls due; undefined when none waits. */
	nextDueAt(): Promise<number | undefined>;
	markSent(id: number, at: number): Promise<void>;
	retryLater(id: number, nextAt: number, error: string, at: number): Promise<void>;
	markFailed(id: number, error: string, at: number): Promise<void>;
	markUncertain(id: number, error: string, at: number): Promise<void>;
	/** Stops retrying a delivery that failed past `events.maxAge`; `replayForwards` sends it again. */
	markDead(id: number, error: string, at: number): Promise<void>;
	/** Puts failed or dead forwards back in line, due now, attempts from 0, keys kept; how many were. */
	replayForwards(ids: readonly number[], at: number): Promise<number>;
	/** The forwards a crash left in `sending` (on Postgres, those of workers whose lease is gone). */
	interruptedForwards(): Promise<ForwardJob[]>;
	/** Puts an interrupted forward back in line, attempts kept. */
	requeue(id: number, at: number): Promise<void>;
	/** Puts a forward just claimed back in line, due at `nextAt`, its claim not counted as an attempt (its receiver had no room). */
	putBack(id: number, nextAt: number, at: number): Promise<void>;
	forwardCounts(): Promise<Record<ForwardState, number>>;
	forwards(): Promise<ForwardJob[]>;
	/** Forwards queued before `before` that failed and wait for another attempt (at most 100). */
	retryingSince(before: number): Promise<ForwardJob[]>;
}

/** The cron's: the campaign runs it started. */
export interface RunStore {
	/** Records a run; `events` (its campaign.started) are queued with it, in one transaction, when the run is new. */
	startRun(run: CampaignRun, events?: KeyedForward[]): Promise<void>;
	/**
	 * Closes a run; `events` (its campaign.finished or .paused) are queued with it, in one
	 * transaction, when it was still open: of several workers finishing it, one queues them.
	 */
	finishRun(run: string, outcome: string, at: number, events?: KeyedForward[]): Promise<void>;
	unfinishedRuns(): Promise<CampaignRun[]>;
	/** The names of a campaign's runs started at or after `since` (Unix ms), and when its first known run started. */
	runsSince(
		campaign: string,
		since: number,
	): Promise<{ runs: string[]; firstStartedAt: number | undefined }>;
}

/**
 * What the daemon keeps besides the ledger: callback events, the outbox of forwards, and
 * the campaign runs the cron started, in the ledger's database.
 */
export interface DaemonStore extends EventStore, OutboxStore, RunStore {
	/** Runs finished before `before` (Unix ms), whose ledger campaigns are to go first. */
	finishedRunsBefore(before: number): Promise<string[]>;
	/** Processed callback events, settled forwards and finished runs older than `before` (Unix ms) are deleted. */
	prune(before: number): Promise<{ events: number; forwards: number; runs: number }>;
	close(): Promise<void>;
}
