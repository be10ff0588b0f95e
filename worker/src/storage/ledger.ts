import type { CampaignSpec } from '../settings/campaignSpec';
import type { ConsentKind, ContactHistory, ForgetResult } from './contact';
import type { EvidenceRow } from './evidence';

export type { ConsentKind };
import type { VariantStore } from './variantStore';

/**
 * A recipient's way through a campaign. `submitting` is a pending row of a chunk on its
 * way (recorded, durably, before the request leaves); `uncertain` is a submitting row
 * whose answer never came back. `held`: a variant campaign's row outside its test, waiting
 * for the winner's text (it becomes pending with it).
 */
export const ROW_STATUSES = [
	'pending',
	'submitting',
	'accepted',
	'rejected',
	'uncertain',
	'invalid',
	'duplicate',
	'suppressed',
	'cancelled',
	'held',
	'capped',
] as const;

export type RowStatus = (typeof ROW_STATUSES)[number];

/** Statuses nothing will change any more without a person asking (--resend-uncertain). */
export const FINAL_STATUSES: readonly RowStatus[] = [
	'accepted',
	'rejected',
	'uncertain',
	'invalid',
	'duplicate',
	'suppressed',
	'cancelled',
	'capped',
];

export type CampaignPhase = 'importing' | 'sending' | 'finished' | 'cancelled';

export interface RunOwner {
	pid: number;
	host: string;
	token: string;
	/** Unix milliseconds of the last sign of life. */
	heartbeatAt?: number;
}

/**
 * What an import had read of its CSV when it stored its last batch: a resume reads the same
 * first `bytes` again and compares, so an edited list never shifts the lines under the
 * import mark. Size and mtime name the change for a person.
 */
export interface InputMark {
	/** Bytes read from the start of the file, and their SHA-256 (hex). */
	bytes: number;
	hash: string;
	/** The file's size and mtime (Unix ms) then; 0 and undefined for standard input. */
	size: number;
	mtimeMs?: number;
}

/** The guardrail that paused a campaign, and what it saw, for a person. */
export interface PausedBy {
	by: 'spend-cap' | 'daily-spend-cap' | 'failure-rate';
	detail: string;
}

/**
 * A cancel asked while a run held the campaign: the run ends it once its batches in flight
 * settle (or, killed first, whichever worker takes it up next). Why, and when (Unix ms).
 */
export interface CancelledBy {
	reason: string;
	at: number;
}

export interface CampaignRecord {
	spec: CampaignSpec;
	phase: CampaignPhase;
	paused: boolean;
	/** Set when a guardrail paused it; a pause or resume by a person clears it. */
	pausedBy?: PausedBy;
	cancelledBy?: CancelledBy;
	/** The last CSV line whose row is in the ledger. */
	importedThrough: number;
	/** What the import had read of the CSV (schema 7); undefined before its first batch. */
	input?: InputMark;
	createdAt: number;
	updatedAt: number;
	owner?: RunOwner;
}

/** One URL of a row's text, and the token that stands for it there. */
export interface TrackedLink {
	token: string;
	url: string;
}

/** A row as the import stores it and the readers read it back. */
interface RowFields {
	line: number;
	to?: string;
	text?: string;
	segments: number;
	errorCode?: string;
	message?: string;
}

export interface ImportRow extends RowFields {
	status: 'pending' | 'invalid' | 'duplicate' | 'suppressed' | 'held';
	timeZone?: string;
	/** `--track-links`: the tokens its text links to, stored with the row. */
	links?: TrackedLink[];
	/** A variant campaign's: the variant (1 is --text) of a test row; none while held. */
	variant?: number;
	/** Each text rendered for the row, until the variant sink picks (not stored as such). */
	variants?: { text?: string; segments: number; ucs2?: string }[];
	/** A dry run's forecast only (RowVerdict's), not stored. */
	ucs2?: string;
	otherSegments?: number;
}

export interface PendingRow {
	line: number;
	to: string;
	text: string;
	segments: number;
	timeZone?: string;
	/** On the suppression list now, though it was not at import. */
	suppressed: boolean;
	/** A variant campaign's text (1 is --text): its ExternalId carries it. */
	variant?: number;
}

/** A worker's last word that every callback it took is in (stampCallbacksIn). */
export interface CallbacksStamp {
	worker: string;
	ageMs: number;
	/** Where it runs, when it said: one on this host whose process is gone says nothing more. */
	host?: string;
	pid?: number;
}

export interface SettledRow {
	line: number;
	/**
	 * `suppressed`: its number was put on the suppression list while the chunk waited to leave;
	 * `capped`: its number had had its --frequency-cap of messages. Neither was sent.
	 */
	status: 'accepted' | 'rejected' | 'uncertain' | 'pending' | 'suppressed' | 'capped';
	messageSid?: string;
	errorCode?: string;
	message?: string;
}

/** A failed row as `campaign retry-failed` sends it again: its number and the text it was sent. */
export interface RetryableRow {
	line: number;
	to: string;
	text: string;
	timeZone?: string;
}

export interface LedgerRow extends RowFields {
	status: RowStatus;
	messageSid?: string;
}

/** A delivery receipt, stored against the row whose message it reports on. */
export interface DeliveryRecord {
	messageSid: string;
	/** The row, when the receipt's ExternalId `<campaign>:<row>` names one; else found by MessageSid. */
	campaign?: string;
	line?: number;
	status: 'Delivered' | 'Failed';
	errorCode?: string;
	/** Unix seconds: the receipt's Timestamp. */
	at: number;
	/** Unix milliseconds the worker received the receipt. */
	receivedAt?: number;
}

/** Where a receipt was stored; `resolved` when it settled an `uncertain` row as accepted. */
export interface DeliveredRow {
	campaign: string;
	line: number;
	resolved: boolean;
}

/** A reply to one of a campaign's messages, stored against the row its ExternalId names. */
export interface ReplyRecord {
	campaign: string;
	line: number;
	/** The inbound message. */
	messageSid: string;
	/** Unix milliseconds. */
	at: number;
	/** The reply took the sender off later campaigns (a STOP keyword or an optOut rule). */
	optOut: boolean;
}

/** What the receipts and replies of a campaign say, beside its rows' statuses. */
export interface DeliveryCounts {
	delivered: number;
	failed: number;
	/** Failed receipts by the provider's ErrorCode ('' when it gave none); an object with no prototype. */
	failedByCode: Record<string, number>;
	/** Accepted rows no receipt has reported on yet. */
	awaitingReceipt: number;
	/** Rows with at least one reply, and rows whose reply opted the sender out. */
	replied: number;
	optedOut: number;
}

/** The report's figures, each read as counts or buckets in the database, never row by row. */
export interface ReportFigures {
	/** Failed receipts by the first digits of the number ('+' and five), with one number of each. */
	failuresByPrefix: { prefix: string; sample: string; count: number }[];
	/** Accepted messages by the bucket (Unix seconds of its start) their answer was stored in, or their request left (sentByReceipt). */
	sends: { at: number; count: number }[];
	/** Receipts by the bucket of their Timestamp. */
	deliveries: { at: number; delivered: number; failed: number }[];
	/** Receipts by tenths of a second from the answer that accepted the message to the receipt's arrival. */
	receiptTenths: { tenths: number; count: number }[];
	/**
	 * Messages whose answer was lost (uncertain) until a receipt showed they were sent: in
	 * `sends` and `receiptTenths` they are timed from when their request left.
	 */
	sentByReceipt: number;
}

export type StatusCounts = Record<RowStatus, number>;

/** Rows whose request left, or may have: once there is one, a campaign's settings are fixed and forgetting it needs --force. */
export function sentRows(rows: StatusCounts): number {
	return rows.accepted + rows.rejected + rows.uncertain + rows.submitting;
}

export interface CampaignCounts {
	rows: StatusCounts;
	total: number;
	/** Segments of accepted rows, and of every row that would be sent. */
	acceptedSegments: number;
	sendableSegments: number;
}

/** A campaign as the dashboard lists it: its record, and the millionths of money its spend cap reserved. */
export interface DashboardCampaign {
	name: string;
	record: CampaignRecord;
	spentMicros: number;
}

/** A part of a campaign's lines: after `after`, through `through`. */
export interface FigureLines {
	after: number;
	through: number;
}

/** A campaign's figures on the dashboard: its rows by status, and what receipts, replies and clicks said. */
export interface DashboardFigures {
	rows: StatusCounts;
	total: number;
	acceptedSegments: number;
	delivered: number;
	failed: number;
	/** Failed receipts by ErrorCode ('' when none was given); an object with no prototype. */
	failedByCode: Record<string, number>;
	replied: number;
	optedOut: number;
	/** Rows with a click a person made (previews' prefetches left out). */
	clicked: number;
	/** Unix milliseconds of its first and last stored answer. */
	firstSentAt?: number;
	lastSentAt?: number;
}

/** The readers': `campaign status`, `campaign report`, `contact show`, the daemon's report links. */
export interface LedgerReader {
	/** A variant campaign's tallies and decision. */
	readonly variants: VariantStore;
	campaign(name: string): Promise<CampaignRecord | undefined>;
	/** Every campaign's name, in order. */
	campaignNames(): Promise<string[]>;
	/** The dashboard: every campaign with its record, in one statement. */
	dashboardCampaigns(): Promise<DashboardCampaign[]>;
	/** The dashboard: these campaigns' figures, in a few grouped statements; of some lines only, when given. */
	dashboardFigures(
		names: readonly string[],
		lines?: FigureLines,
	): Promise<Map<string, DashboardFigures>>;
	counts(name: string): Promise<CampaignCounts>;
	/** Rows in line order, those of `statuses` only when given, after line `afterLine` when given. */
	rows(
		name: string,
		statuses?: RowStatus[],
		limit?: number,
		afterLine?: number,
	): AsyncIterable<LedgerRow>;
	/** `acceptedRows`: the campaign's accepted rows, when the caller has just counted them (spares a scan). */
	deliveryCounts(name: string, acceptedRows?: number): Promise<DeliveryCounts>;
	delivery(name: string, line: number): Promise<DeliveryRecord | undefined>;
	/** The first and last moment (Unix seconds) a message of the campaign was sent or a receipt came; undefined before any. */
	activitySpan(name: string): Promise<{ from: number; to: number } | undefined>;
	reportFigures(name: string, bucketSeconds: number): Promise<ReportFigures>;
	/** `campaign evidence`: each row of the campaign, in line order, with what proves its consent, its sending and its opt-out. */
	evidence(name: string): AsyncIterable<EvidenceRow>;
	/** The opt-outs replies to this campaign made: when each reply came (Unix ms), when its number's suppression was recorded, and why. */
	campaignOptOuts(
		name: string,
	): Promise<{ replyAt: number; suppressedAt?: number; reason?: string }[]>;
	/** `contact show`: everything the ledger holds about one number, in time order. */
	contactHistory(number: string): Promise<ContactHistory>;
	/** Millionths of money a guardrail has reserved under `key` (guardSql.ts). */
	spent(key: string): Promise<number>;
	close(): Promise<void>;
}

/** The callback processor's: receipts and replies, and the opt-outs and opt-ins they carry. */
export interface CallbackLedger {
	/**
	 * Stores a delivery receipt against the row that sent its MessageSid; undefined when no
	 * row of any campaign did. The row its ExternalId names is taken only when the MessageSid
	 * is that row's, or the row's is not known: an `uncertain` row, which the receipt proves
	 * was sent and makes `accepted` with the receipt's MessageSid, or a row of a chunk on its
	 * way (the receipt came before the answer; a crash then leaves it to `recoverSubmitting`).
	 */
	recordDelivery(receipt: DeliveryRecord): Promise<DeliveredRow | undefined>;
	/** The number this ledger sent the message to; undefined when no campaign of it sent that MessageSid. */
	sentTo(messageSid: string): Promise<string | undefined>;
	/** False when this reply was already stored, or its row is not in the ledger. */
	recordReply(reply: ReplyRecord): Promise<boolean>;
	isSuppressed(number: string): Promise<boolean>;
	/** Which of these numbers are on the suppression list now: read as a chunk's request is about to leave. */
	suppressedAmong(numbers: readonly string[]): Promise<Set<string>>;
	/** A worker says every callback it took (none spooled, all processed) is in, as of now. */
	stampCallbacksIn(worker: string, where?: { host: string; pid: number }): Promise<void>;
	/** A worker that stops says nothing more. */
	dropCallbacksStamp(worker: string): Promise<void>;
	/** Each worker's last word that its callbacks were in, and how long ago, by the database's clock. */
	callbacksStamps(): Promise<CallbacksStamp[]>;
	addSuppression(number: string, reason: string): Promise<void>;
	/** Suppresses a number its receipt says does not exist, unless it is suppressed already (an opt-out keeps its reason). */
	suppressPermanentFailure(number: string, reason: string): Promise<void>;
	/** A delivery succeeded: lifts a suppression whose reason begins with `prefix` (a permanent failure's), never an opt-out. */
	liftPermanentFailure(number: string, prefix: string): Promise<boolean>;
	/** `reason`: the opt-in as it came (the START and its message); recorded with its time. */
	removeSuppression(number: string, reason?: string): Promise<boolean>;
	/** A consent event besides an opt-out or opt-in: a reply held for review, a confirmation sent. */
	recordConsent(number: string, kind: ConsentKind, reason: string): Promise<void>;
	/** Unix milliseconds of the number's last consent event of this kind. */
	lastConsent(number: string, kind: ConsentKind): Promise<number | undefined>;
}

/** Where a number's consent came from and when (Unix milliseconds), as a list gave it. */
export interface ConsentRecord {
	number: string;
	source: string;
	at: number;
}

/** A reply that asked to stop in words of its own, held for a person (optOut.reasonableMeans: review). */
export interface PendingReview {
	number: string;
	/** Unix milliseconds. */
	at: number;
	reason: string;
}

/**
 * Where campaigns, recipients and the suppression list live, in SQLite or the Postgres
 * several workers share; every call is its own transaction. Beside the readers' and the
 * callbacks' sides, what the engine runs on: a campaign, its import, its chunks on their
 * way and their answers, and the commands that change it.
 */
/** What the guardrails keep in the store (guardSql.ts), shared by every worker on it. */
export interface GuardLedger {
	/** Millionths of money reserved under `key` (a campaign's spend, a day's). */
	spent(key: string): Promise<number>;
	/** Adds `micros` under `key` only if the sum stays within `capMicros`, atomically across workers. */
	reserveSpend(key: string, micros: number, capMicros: number): Promise<boolean>;
	/** Gives back what was reserved for messages that were not handed over after all. */
	releaseSpend(key: string, micros: number): Promise<void>;
	/** The failure-rate brake's window: the latest `limit` outcomes after its mark, and the failed ones' ErrorCodes. */
	latestOutcomes(name: string, limit: number, throughLine: number): Promise<Outcomes>;
	/** Sets the brake's mark past every row sent so far: after a resume it judges afresh. */
	markOutcomesSeen(name: string): Promise<void>;
	/**
	 * The frequency cap's count: of `numbers`, those sent `count` messages or more since
	 * `sinceMs` (Unix ms) by any campaign, counting other campaigns' messages on their way.
	 */
	cappedAmong(
		numbers: readonly string[],
		campaign: string,
		sinceMs: number,
		count: number,
	): Promise<Set<string>>;
}

/** Delivery outcomes (provider rejections, receipts): how many, how many failed, by ErrorCode. */
export interface Outcomes {
	total: number;
	failed: number;
	failedByCode: Record<string, number>;
}

export interface Ledger extends LedgerReader, CallbackLedger, GuardLedger {
	createCampaign(spec: CampaignSpec): Promise<CampaignRecord>;
	/** Takes the run; when another live run holds it, returns that owner instead. */
	claim(name: string, owner: RunOwner, staleMs: number): Promise<RunOwner | undefined>;
	heartbeat(name: string, owner: RunOwner): Promise<void>;
	release(name: string, owner: RunOwner): Promise<void>;
	/** `cancelledBy`: a cancel its run has to settle, written with the phase in one transaction. */
	setPhase(name: string, phase: CampaignPhase, cancelledBy?: CancelledBy): Promise<void>;
	/** `by`: the guardrail pausing it; without, the pause (or resume) is a person's. */
	setPaused(name: string, paused: boolean, by?: PausedBy): Promise<void>;
	/** Forgets the campaign and everything stored about it (a cron run's record included), in one transaction. */
	/**
	 * `purge`: its stored callbacks too, and the database rewritten so no byte of it is left
	 * (SqlDb.reclaim); then whether that was wholly done.
	 */
	deleteCampaign(name: string, purge?: boolean): Promise<boolean | undefined>;
	/** Adds rows and moves the import mark (and the input mark, given) in one transaction, so a crash never splits them. */
	importBatch(
		name: string,
		rows: ImportRow[],
		throughLine: number,
		input?: InputMark,
		/** Consents read from the list: each stored unless its number has one already. */
		consents?: readonly ConsentRecord[],
	): Promise<void>;
	/** Which of these numbers have a consent recorded. */
	consentedAmong(numbers: readonly string[]): Promise<Set<string>>;
	/** Numbers already in the campaign, to find duplicates when an import resumes. */
	campaignNumbers(name: string): AsyncIterable<string>;
	/**
	 * After a crash: rows whose request may have left are `uncertain`, never `pending`, or
	 * `accepted` when their receipt has come. Returns how many became uncertain.
	 */
	recoverSubmitting(name: string): Promise<number>;
	/** Uncertain rows go back to pending, except those a receipt has shown were sent: they become accepted. */
	requeueUncertain(name: string): Promise<number>;
	/** Uncertain rows whose stored message starts with one of `messages` become pending again. */
	requeueUncertainWith(name: string, messages: readonly string[]): Promise<number>;
	/**
	 * The next pending rows after line `afterLine`, in line order; they stay pending until
	 * marked. A sender passes the last line it took, so no peek reads past sent rows again.
	 */
	peekPending(name: string, limit: number, afterLine?: number): Promise<PendingRow[]>;
	markSuppressed(name: string, lines: number[]): Promise<void>;
	/** Rows whose receipt failed with one of `codes`, neither suppressed nor delivered since. */
	retryableRows(name: string, codes: readonly string[]): Promise<RetryableRow[]>;
	/**
	 * Durable before it returns: the request leaves only after this. The lines must be all
	 * the pending rows between the first and the last, none already submitting; else nothing
	 * is marked and it throws.
	 */
	markSubmitting(name: string, lines: number[], chunk: number): Promise<void>;
	/**
	 * The same mark, resolved once it is committed, with `durable`, resolved once it is on
	 * disk: the request waits for `durable` (a mark lost to a power cut would let its rows be
	 * sent twice), and the sender meanwhile marks its next chunk (on Postgres, whose commits
	 * are on disk when made, `durable` is resolved already).
	 */
	markSubmittingCommitted(
		name: string,
		lines: number[],
		chunk: number,
	): Promise<{ durable: Promise<void> }>;
	/** The answer for a chunk, in one transaction: its rows' outcomes, and the chunk no longer submitting. */
	settle(name: string, chunk: number, rows: SettledRow[]): Promise<void>;
	cancelPending(name: string): Promise<number>;
	suppressions(): AsyncIterable<string>;
	/** `contact forget`: erases the number across campaigns, in one transaction; a suppression stays, under its hash. */
	forgetContact(number: string): Promise<ForgetResult>;
	/** Replies held for review that no person has settled, oldest first. */
	pendingReviews(): Promise<PendingReview[]>;
}
