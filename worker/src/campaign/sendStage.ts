import type { SendMessageRequest } from '../../../api';
import type { Ledger, PausedBy, PendingRow, SettledRow } from '../storage/ledger';
import { SendTimes, type Timing } from '../schedule/sendTime';
import type { StopReason } from './campaignSummary';
import type { Chunk, ChunkSource } from './chunkSource';
import { externalId } from '../rows/externalId';
import { FatalError } from '../errors';
import { localChunks } from './localChunks';
import { CallbacksGate } from './callbacksGate';
import { sendChunk, type ChunkRequest } from './sendChunk';
import { paidFor, spendCapPause } from './spendCapChunk';
import type { SpendCap } from './spendCap';
import type { FailureRateBrake } from './failureRateBrake';
import { sleep } from './sleep';

export interface SendStageInput extends ChunkRequest {
	from?: string;
	timing: Timing;
	ledger: Ledger;
	chunkSize: number;
	concurrency: number;
	/** Rows to send when the stage starts, for progress. */
	total: number;
	/** How often a run looks for pause and cancel from another process. */
	controlPollMs?: number;
	/** Where the chunks come from; local chunks (one process sends the run) by default. */
	chunks?: ChunkSource;
	/** The run's messages per second across every process sending it; 0 for no limit. */
	rate?: number;
	/** How long sending waits for a worker's callbacks taken in an outage (CallbacksGate); a test's shorter. */
	callbacksWaitMs?: number;
	/** Where the provider calls back about each message: the worker daemon's webhooks. */
	/** --max-cost, --daily-max-cost: each chunk pays for its messages before they leave (spendCap.ts). */
	spendCaps?: readonly SpendCap[];
	/** --max-failure-rate: pauses the campaign when too many of its latest messages fail (failureRateBrake.ts). */
	brake?: FailureRateBrake;
	callbacks?: Pick<
		SendMessageRequest,
		'DeliveryReceiptWebhookUri' | 'DeliveryReceiptWebhookMethod' | 'WebhookUri' | 'WebhookMethod'
	>;
}

export interface SendStageResult {
	stop: StopReason;
	/** Rows the provider answered for (accepted, rejected) or lost (uncertain): the send rate's messages. */
	sent: number;
	/** Rows found on the suppression list on the way: settled as suppressed, never sent. */
	suppressed: number;
	seconds: number;
	fatal?: FatalError;
	/** A guardrail stopped the run (stop `paused`). */
	pausedBy?: PausedBy;
}

/**
 * send: chunks of pending rows from the run's chunk source, at most `concurrency` in
 * flight. Each chunk is marked `submitting` (durably) before its request, and its answer
 * is stored after; whatever is in between when the process dies becomes `uncertain`.
 */
export async function sendStage(input: SendStageInput): Promise<SendStageResult> {
	const { ledger, campaign, reporter, signal } = input;
	const pollMs = input.controlPollMs ?? 250;
	const inflight = new Set<Promise<void>>();
	const started = performance.now();
	let sent = 0;
	/** Rows whose number was suppressed (or at its frequency cap) after they were taken, found by the last look before their request. */
	let heldBack = 0;
	let fatal: FatalError | undefined;
	let lastProgress = 0;
	let control = { at: 0, paused: false, cancelled: false, guarded: false };
	/** The cap that cut a chunk short: the run pauses once its chunks are in. */
	let capped: SpendCap | undefined;
	/** The highest line this run has settled: the brake's window ends there. */
	let settledThrough = 0;
	/** What the failure-rate brake saw when it paused the campaign. */
	let braked: PausedBy | undefined;
	let pausedReported = false;
	const callbacksIn = new CallbacksGate(ledger, reporter, signal, input.callbacksWaitMs);
	const taker = (input.chunks ?? localChunks).taker({
		ledger,
		campaign,
		chunkSize: input.chunkSize,
		bucket: input.bucket,
		rate: input.rate ?? 0,
		pollMs,
		signal,
		inflight: {
			get size() {
				return inflight.size;
			},
			one: () => Promise.race(inflight),
		},
		pace: async (ms) => {
			// Looks at the controls (every pollMs at most) while it waits, so a cancel or a pause ends the wait at once.
			const until = performance.now() + ms;
			for (;;) {
				const left = until - performance.now();
				if (left <= 0) return true;
				if (signal?.aborted) return false;
				await sleep(Math.min(left, pollMs), signal);
				const c = await readControl();
				if (c.cancelled || c.paused) return false;
			}
		},
	});

	const readControl = async () => {
		const now = performance.now();
		if (now - control.at < pollMs) return control;
		if (!braked && input.brake) {
			braked = await input.brake.judge(settledThrough, now);
			if (braked) {
				await ledger.setPaused(campaign, true, braked);
				reporter.event(
					'paused',
					{ campaign, pausedBy: braked.by, reason: braked.detail },
					`paused by its ${braked.by}: ${braked.detail}`,
				);
			}
		}
		const c = await ledger.campaign(campaign);
		control = {
			at: now,
			paused: c?.paused ?? false,
			cancelled: c?.phase === 'cancelled',
			guarded: c?.pausedBy !== undefined,
		};
		return control;
	};

	const progress = (force = false) => {
		const now = performance.now();
		if (!force && now - lastProgress < 200) return;
		lastProgress = now;
		const done = sent + taker.suppressed + heldBack;
		const rate = sent / Math.max(0.001, (now - started) / 1000);
		reporter.progress({
			stage: 'send',
			done,
			total: input.total,
			rate,
			etaSeconds: rate > 0 ? (input.total - done) / rate : undefined,
			unit: 'messages',
		});
	};

	const settle = async (chunk: number, rows: SettledRow[]) => {
		await ledger.settle(campaign, chunk, rows);
		for (const r of rows) if (r.line > settledThrough) settledThrough = r.line;
		for (const r of rows)
			if (r.status === 'suppressed' || r.status === 'capped') heldBack++;
			else if (r.status !== 'pending') sent++;
		const uncertain = rows.filter((r) => r.status === 'uncertain');
		if (uncertain.length > 0) {
			reporter.event(
				'uncertain',
				{ lines: uncertain.map((r) => r.line), reason: uncertain[0].message },
				`${uncertain.length} rows are uncertain: ${uncertain[0].message}`,
			);
		}
		progress();
	};

	const launch = (whole: Chunk) => {
		const suppressedAmong = async (numbers: readonly string[]) => {
			await callbacksIn.wait();
			return ledger.suppressedAmong(numbers);
		};
		const send = paidFor(input.spendCaps ?? [], whole, settle, (by) => (capped ??= by)).then(
			(paid) =>
				paid.chunk.rows.length === 0
					? paid.settle(paid.chunk.chunk, []).then(() => undefined)
					: sendChunk(
							{ suppressedAmong, ...input },
							paid.chunk,
							buildMessages(input, paid.chunk.rows),
							paid.settle,
							() => fatal,
						),
		);
		const p: Promise<void> = send
			.then((error) => {
				fatal ??= error;
			})
			.catch((error: Error) => {
				fatal ??= new FatalError(`sending failed: ${error.message}`, 1, { cause: error });
			})
			.finally(() => inflight.delete(p));
		inflight.add(p);
	};

	let stop: StopReason = 'finished';
	for (;;) {
		if (fatal) {
			stop = 'failed';
			break;
		}
		if (capped) {
			stop = 'paused';
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
			// Another worker's guardrail paused it: this run stops as that one did, to be run again.
			if (c.guarded) {
				stop = 'paused';
				break;
			}
			if (!pausedReported)
				reporter.event(
					'paused',
					{ campaign },
					`paused: \`cloudtel campaign resume\` continues, \`cloudtel campaign cancel\` stops`,
				);
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
		let taken;
		try {
			taken = await taker.next();
		} catch (error) {
			// A ledger that keeps refusing marks ends the run; a store fault goes up as before.
			if (!(error instanceof FatalError)) throw error;
			fatal ??= error;
			continue;
		}
		if (taken === 'done') break;
		if (taken === 'changed') control.at = 0;
		else if (taken !== 'again') launch(taken);
	}
	await Promise.all(inflight);
	progress(true);
	// A chunk cut short may settle before the loop looks again, and the rest seem done.
	if (capped && stop === 'finished') stop = 'paused';
	// Every row sent is in: a resume judges only what is sent after it.
	if (braked) await input.brake?.seen();
	const pausedBy = capped && !fatal ? await spendCapPause(ledger, campaign, capped) : braked;
	if (pausedBy && pausedBy !== braked)
		reporter.event(
			'paused',
			{ campaign, pausedBy: pausedBy.by, reason: pausedBy.detail },
			`paused by its ${pausedBy.by}: ${pausedBy.detail}`,
		);
	return {
		pausedBy,
		stop: fatal ? 'failed' : stop,
		sent,
		suppressed: taker.suppressed + heldBack,
		seconds: (performance.now() - started) / 1000,
		fatal,
	};
}

function buildMessages(input: SendStageInput, rows: PendingRow[]): SendMessageRequest[] {
	const times = new SendTimes(input.timing, Math.floor(Date.now() / 1000));
	return rows.map((r) => {
		const m: SendMessageRequest = {
			...input.callbacks,
			To: r.to,
			Text: r.text,
			ExternalId: externalId(input.campaign, r.line, r.variant),
		};
		if (input.from !== undefined) m.From = input.from;
		const schedule = times.scheduleFor(r.timeZone);
		if (schedule !== undefined) m.Schedule = schedule;
		return m;
	});
}
