import type { SendMessageRequest } from '../../../api';
import type { Ledger, PendingRow, SettledRow } from '../ledger/ledger';
import type { ClaimedChunk, SharedLedger } from '../ledger/sharedLedger';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../pacing/backoff';
import type { TokenBucket } from '../pacing/tokenBucket';
import type { BatchClient } from '../provider/batchClient';
import type { Reporter } from '../report/reporter';
import { SendTimes, type Timing } from '../schedule/sendTime';
import type { StopReason } from './campaignSummary';
import { externalId } from './externalId';
import { FatalError } from '../errors';
import { settleAnswer } from './settleAnswer';
import { sleep } from './sleep';

export interface SendStageInput {
	campaign: string;
	propertySid: string;
	from?: string;
	timing: Timing;
	ledger: Ledger;
	client: BatchClient;
	bucket: TokenBucket;
	chunkSize: number;
	concurrency: number;
	/** Rows to send when the stage starts, for progress. */
	total: number;
	reporter: Reporter;
	signal?: AbortSignal;
	backoff?: BackoffPolicy;
	/** How often a run looks for pause and cancel from another process. */
	controlPollMs?: number;
	/** Set when several workers send this run together: rows are claimed from the shared ledger and paced across all of them. */
	shared?: SharedSending;
	/** Where the provider calls back about each message: the worker daemon's webhooks. */
	callbacks?: Pick<SendMessageRequest, 'DeliveryReceiptWebhookUri' | 'DeliveryReceiptWebhookMethod' | 'WebhookUri' | 'WebhookMethod'>;
}

export interface SharedSending {
	ledger: SharedLedger;
	/** The run's messages per second, across every worker; 0 for no limit. */
	rate: number;
}

export interface SendStageResult {
	stop: StopReason;
	/** Rows the provider answered for (accepted, rejected) or lost (uncertain). */
	sent: number;
	seconds: number;
	fatal?: FatalError;
}

/** 429s are the provider pacing us, not failing: allow many more of them than of faults. */
const MAX_RATE_LIMITED_ATTEMPTS = 60;

/**
 * send: chunks of pending rows, paced by the bucket, at most `concurrency` in flight.
 * Each chunk is marked `submitting` (durably) before its request, and its answer is
 * stored after; whatever is in between when the process dies becomes `uncertain`.
 */
export async function sendStage(input: SendStageInput): Promise<SendStageResult> {
	const { ledger, campaign, reporter, bucket, signal } = input;
	const policy = input.backoff ?? DEFAULT_BACKOFF;
	const pollMs = input.controlPollMs ?? 250;
	const inflight = new Set<Promise<void>>();
	const started = performance.now();
	let sent = 0;
	let fatal: FatalError | undefined;
	let chunkNo = Date.now();
	/** The last line taken: rows up to it are sent or on their way. */
	let cursor = 0;
	/** Consecutive refusals to mark a chunk: a ledger that keeps failing stops the run. */
	let markFailures = 0;
	let lastProgress = 0;
	let control = { at: 0, paused: false, cancelled: false };
	let pausedReported = false;

	const readControl = async () => {
		const now = performance.now();
		if (now - control.at < pollMs) return control;
		const c = await ledger.campaign(campaign);
		control = { at: now, paused: c?.paused ?? false, cancelled: c?.phase === 'cancelled' };
		return control;
	};

	const progress = (force = false) => {
		const now = performance.now();
		if (!force && now - lastProgress < 200) return;
		lastProgress = now;
		const rate = sent / Math.max(0.001, (now - started) / 1000);
		reporter.progress({ stage: 'send', done: sent, total: input.total, rate, etaSeconds: rate > 0 ? (input.total - sent) / rate : undefined, unit: 'messages' });
	};

	const settle = async (chunk: number, rows: SettledRow[]) => {
		await ledger.settle(campaign, chunk, rows);
		for (const r of rows) if (r.status !== 'pending') sent++;
		const uncertain = rows.filter((r) => r.status === 'uncertain');
		if (uncertain.length > 0) {
			reporter.event('uncertain', { lines: uncertain.map((r) => r.line), reason: uncertain[0].message }, `${uncertain.length} rows are uncertain: ${uncertain[0].message}`);
		}
		progress();
	};

	const sendChunk = async (chunk: number, rows: PendingRow[], messages: SendMessageRequest[], durable?: Promise<void>) => {
		const lines = rows.map((r) => r.line);
		if (durable) {
			try {
				await durable;
			} catch (error) {
				// The mark may not be on disk: nothing of this chunk leaves, its rows are pending again.
				await settle(chunk, lines.map((line) => ({ line, status: 'pending' })));
				fatal ??= new FatalError(`the ledger could not write the rows being submitted to disk: ${(error as Error).message}; nothing of them was sent`, 1, { cause: error });
				return;
			}
		}
		for (let attempt = 1; ; attempt++) {
			const outcome = await input.client.send(input.propertySid, messages);
			if (outcome.kind === 'answered') return settle(chunk, settleAnswer(campaign, lines, outcome.results));
			if (outcome.kind === 'lost') return settle(chunk, lines.map((line) => ({ line, status: 'uncertain', message: `answer lost: ${outcome.reason}` })));
			if (outcome.kind === 'unsent') {
				await settle(chunk, lines.map((line) => ({ line, status: 'pending' })));
				fatal ??= unreachable(outcome.reason);
				return;
			}
			if (outcome.kind === 'refused') {
				// Nothing of this batch was processed: the rows go back to pending for a later run.
				await settle(chunk, lines.map((line) => ({ line, status: 'pending' })));
				fatal ??= refusal(outcome.status, outcome.detail, input.propertySid);
				return;
			}
			const limited = outcome.status === 429;
			if (attempt >= (limited ? MAX_RATE_LIMITED_ATTEMPTS : policy.maxAttempts) || signal?.aborted || fatal) {
				await settle(chunk, lines.map((line) => ({ line, status: 'pending' })));
				if (!signal?.aborted) fatal ??= new FatalError(`the provider kept failing (${outcome.reason}, ${attempt} attempts); the rows not sent stay pending: run again to resume`);
				return;
			}
			const delay = outcome.retryAfterMs ?? backoffDelay(attempt, policy);
			if (limited) bucket.block(delay);
			reporter.event('retry', { lines: [lines[0], lines[lines.length - 1]], attempt, status: outcome.status, reason: outcome.reason, delayMs: delay }, `${outcome.reason}: attempt ${attempt} failed; retrying ${rows.length} messages in ${(delay / 1000).toFixed(1)} s`);
			await sleep(delay, signal);
			if (limited) await bucket.take(rows.length, (ms) => sleep(ms, signal));
		}
	};

	const buildMessages = (rows: PendingRow[]): SendMessageRequest[] => {
		const times = new SendTimes(input.timing, Math.floor(Date.now() / 1000));
		return rows.map((r) => {
			const m: SendMessageRequest = { ...input.callbacks, To: r.to, Text: r.text, ExternalId: externalId(campaign, r.line) };
			if (input.from !== undefined) m.From = input.from;
			const schedule = times.scheduleFor(r.timeZone);
			if (schedule !== undefined) m.Schedule = schedule;
			return m;
		});
	};

	const launch = (chunk: number, rows: PendingRow[], messages: SendMessageRequest[], durable?: Promise<void>) => {
		const p: Promise<void> = sendChunk(chunk, rows, messages, durable)
			.catch((error: Error) => {
				fatal ??= new FatalError(`sending failed: ${error.message}`, 1, { cause: error });
			})
			.finally(() => inflight.delete(p));
		inflight.add(p);
	};

	/** Nothing pending was found at the last look: the next look waits for no slot of the rate. */
	let drained = false;
	const pace = async (shared: SharedSending, count: number) => {
		if (shared.rate > 0) await sleep(await shared.ledger.pace(campaign, count, shared.rate), signal);
	};

	/**
	 * The next chunk when several workers send the run together: a slot of the run's rate
	 * first (so rows marked submitting wait for no one), then rows no other worker holds.
	 * The run is over for this worker only when nothing is pending and no chunk of anyone's
	 * is on its way: one cut off by a dying worker may still come back to pending.
	 */
	const takeShared = async (shared: SharedSending): Promise<ClaimedChunk | 'again' | 'done'> => {
		if (!drained) await pace(shared, input.chunkSize);
		if (signal?.aborted) return 'again';
		const claimed = await shared.ledger.claimChunk(campaign, input.chunkSize);
		sent += claimed.suppressed;
		if (claimed.rows.length > 0) {
			if (drained) await pace(shared, claimed.rows.length);
			drained = false;
			return claimed;
		}
		if (claimed.suppressed > 0) return 'again';
		drained = true;
		if (inflight.size > 0) {
			await Promise.race(inflight);
			return 'again';
		}
		if ((await shared.ledger.submissionsInFlight(campaign)) === 0) return 'done';
		await sleep(pollMs, signal);
		return 'again';
	};

	let stop: StopReason = 'finished';
	for (;;) {
		if (fatal) {
			stop = 'failed';
			break;
		}
		if (signal?.aborted) {
			stop = 'interrupted';
			break;
		}
		const c = await readControl();
		if (c.cancelled) {
			stop = 'cancelled';
			break;
		}
		if (c.paused) {
			if (inflight.size > 0) {
				await Promise.race(inflight);
				continue;
			}
			if (!pausedReported) reporter.event('paused', { campaign }, `paused: \`cloudtel campaign resume\` continues, \`cloudtel campaign cancel\` stops`);
			pausedReported = true;
			await sleep(pollMs, signal);
			continue;
		}
		if (pausedReported) {
			pausedReported = false;
			reporter.event('resumed', { campaign }, 'resumed');
		}
		if (inflight.size >= input.concurrency) {
			await Promise.race(inflight);
			continue;
		}
		if (input.shared) {
			const taken = await takeShared(input.shared);
			if (taken === 'done') break;
			if (taken !== 'again') launch(taken.chunk, taken.rows, buildMessages(taken.rows));
			continue;
		}
		const rows = await ledger.peekPending(campaign, input.chunkSize, cursor);
		const suppressed = rows.filter((r) => r.suppressed);
		if (suppressed.length > 0) {
			await ledger.markSuppressed(campaign, suppressed.map((r) => r.line));
			sent += suppressed.length;
			continue;
		}
		if (rows.length === 0) {
			if (inflight.size === 0) break;
			await Promise.race(inflight);
			continue;
		}
		await bucket.take(rows.length, (ms) => sleep(ms, signal));
		if (signal?.aborted) continue;
		const messages = buildMessages(rows);
		const chunk = chunkNo++;
		let durable: Promise<void> | undefined;
		try {
			const lines = rows.map((r) => r.line);
			// Where the store tells commit from disk, the request waits for the disk, not this loop.
			if (ledger.markSubmittingCommitted) durable = (await ledger.markSubmittingCommitted(campaign, lines, chunk)).durable;
			else await ledger.markSubmitting(campaign, lines, chunk);
			// Kept for the chunk's request, which waits for it: not an unhandled rejection meanwhile.
			durable?.catch(() => undefined);
			markFailures = 0;
			cursor = rows[rows.length - 1].line;
		} catch (error) {
			// Cancelled (or otherwise changed) under us by another process: look again. A ledger
			// that refuses again and again (a full disk, say) ends the run instead of a busy loop;
			// nothing of this chunk was sent.
			if (++markFailures >= MAX_MARK_FAILURES) fatal ??= new FatalError(`the ledger could not record rows as submitting: ${(error as Error).message}`, 1, { cause: error });
			control.at = 0;
			continue;
		}
		launch(chunk, rows, messages, durable);
	}
	await Promise.all(inflight);
	progress(true);
	return { stop: fatal ? 'failed' : stop, sent, seconds: (performance.now() - started) / 1000, fatal };
}

const MAX_MARK_FAILURES = 5;

/** The fatal error for a request that provably never left: its rows are still pending. */
export function unreachable(reason: string): FatalError {
	return new FatalError(`cannot reach the provider (${reason}): no byte of the request left, so its rows stay pending; check --base-url (CLOUDTEL_BASE_URL), then run again to resume`);
}

/** The fatal error for an answer that refused a whole request. */
export function refusal(status: number, detail: string, propertySid: string): FatalError {
	if (status === 401) return new FatalError(`the provider refused the credentials (HTTP 401, ${detail}): check CLOUDTEL_ACCOUNT_SID and CLOUDTEL_AUTH_TOKEN`);
	if (status === 404) return new FatalError(`the provider does not know property ${propertySid} in this account (HTTP 404, ${detail}): check --property`);
	return new FatalError(`the provider refused the batch (HTTP ${status}, ${detail}); no row of it was sent`);
}
