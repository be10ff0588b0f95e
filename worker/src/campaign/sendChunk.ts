import type { SendMessageRequest } from '../../../api';
import type { SettledRow } from '../storage/ledger';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../pacing/backoff';
import type { TokenBucket } from '../pacing/tokenBucket';
import type { BatchClient } from '../provider/batchClient';
import type { Chunk } from './chunkSource';
import type { Reporter } from './reporter';
import { FatalError, SettingError } from '../errors';
import { settleAnswer } from './settleAnswer';
import { sleep } from './sleep';
import { FREQUENCY_CAPPED, type FrequencyCapCheck } from './frequencyCap';

/** What one chunk's request needs of the run. */
export interface ChunkRequest {
	campaign: string;
	propertySid: string;
	client: BatchClient;
	bucket: TokenBucket;
	reporter: Reporter;
	signal?: AbortSignal;
	backoff?: BackoffPolicy;
	/** The suppression list as it is now: read just before each request leaves. */
	suppressedAmong?: (numbers: readonly string[]) => Promise<Set<string>>;
	/** --frequency-cap: the numbers sent their cap's messages already, asked after the chunk's mark (frequencyCap.ts). */
	frequencyCap?: FrequencyCapCheck;
}

/** 429s are the provider pacing us, not failing: allow many more of them than of faults. */
const MAX_RATE_LIMITED_ATTEMPTS = 60;

/**
 * One chunk's request, retried while the provider fails it, and its answer settled.
 * Returns the fatal error that ends the run, if its outcome is one.
 */
export async function sendChunk(
	input: ChunkRequest,
	{ chunk, rows, durable }: Chunk,
	messages: SendMessageRequest[],
	settleChunk: (chunk: number, rows: SettledRow[]) => Promise<void>,
	fatal: () => FatalError | undefined,
): Promise<FatalError | undefined> {
	const { campaign, bucket, signal } = input;
	const policy = input.backoff ?? DEFAULT_BACKOFF;
	let lines = rows.map((r) => r.line);
	// Rows whose number was suppressed while the chunk waited: settled with the rest, never sent.
	const held: SettledRow[] = [];
	const settle = (c: number, settled: SettledRow[]) => settleChunk(c, [...settled, ...held]);
	const backToPending = () =>
		settle(
			chunk,
			lines.map((line) => ({ line, status: 'pending' })),
		);
	/** The last look before the request leaves, after any wait (the disk, an outage, a retry): a STOP answered meanwhile is honoured. */
	const hold = (numbers: Set<string>, row: (line: number) => SettledRow) => {
		if (numbers.size === 0) return;
		const keep = messages.map((m) => !numbers.has(m.To));
		held.push(...lines.filter((_, i) => !keep[i]).map(row));
		lines = lines.filter((_, i) => keep[i]);
		messages = messages.filter((_, i) => keep[i]);
	};
	const holdSuppressed = async () => {
		if (input.suppressedAmong)
			hold(await input.suppressedAmong(messages.map((m) => m.To)), (line) => ({
				line,
				status: 'suppressed',
			}));
		const cap = input.frequencyCap;
		if (cap)
			hold(await cap.reachedAmong(messages.map((m) => m.To)), (line) => ({
				line,
				status: 'capped',
				errorCode: FREQUENCY_CAPPED,
				message: cap.reason,
			}));
	};
	if (durable) {
		try {
			await durable;
		} catch (error) {
			// The mark may not be on disk: nothing of this chunk leaves, its rows are pending again.
			await backToPending();
			return new FatalError(
				`the ledger could not write the rows being submitted to disk: ${(error as Error).message}; nothing of them was sent`,
				1,
				{ cause: error },
			);
		}
	}
	for (let attempt = 1; ; attempt++) {
		try {
			await holdSuppressed();
		} catch (error) {
			// The list cannot be read: nothing of this chunk leaves unchecked, its rows are pending again.
			await backToPending();
			return new FatalError(
				`the suppression list or the frequency cap's count could not be read before sending: ${(error as Error).message}; the rows not sent stay pending: run again to resume`,
				1,
				{ cause: error },
			);
		}
		if (messages.length === 0) return void (await settle(chunk, []));
		const outcome = await input.client.send(input.propertySid, messages);
		if (outcome.kind === 'answered')
			return void (await settle(chunk, settleAnswer(campaign, lines, outcome.results)));
		if (outcome.kind === 'lost')
			return void (await settle(
				chunk,
				lines.map((line) => ({
					line,
					status: 'uncertain',
					message: `answer lost: ${outcome.reason}`,
				})),
			));
		if (outcome.kind === 'unsent') {
			await backToPending();
			return unreachable(outcome.reason);
		}
		if (outcome.kind === 'refused') {
			// Nothing of this batch was processed: the rows go back to pending for a later run.
			await backToPending();
			return refusal(outcome.status, outcome.detail, input.propertySid);
		}
		const limited = outcome.status === 429;
		if (
			attempt >= (limited ? MAX_RATE_LIMITED_ATTEMPTS : policy.maxAttempts) ||
			signal?.aborted ||
			fatal()
		) {
			await backToPending();
			if (signal?.aborted) return undefined;
			return new FatalError(
				`the provider kept failing (${outcome.reason}, ${attempt} attempts); the rows not sent stay pending: run again to resume`,
			);
		}
		const delay = outcome.retryAfterMs ?? backoffDelay(attempt, policy);
		if (limited) bucket.block(delay);
		input.reporter.event(
			'retry',
			{
				lines: [lines[0], lines[lines.length - 1]],
				attempt,
				status: outcome.status,
				reason: outcome.reason,
				delayMs: delay,
			},
			`${outcome.reason}: attempt ${attempt} failed; retrying ${rows.length} messages in ${(delay / 1000).toFixed(1)} s`,
		);
		await sleep(delay, signal);
		if (limited)
			await bucket.take(
				rows.length,
				(ms) => sleep(ms, signal),
				() => signal?.aborted === true,
			);
	}
}

/** The fatal error for a request that provably never left: its rows are still pending. */
export function unreachable(reason: string): FatalError {
	return new FatalError(
		`cannot reach the provider (${reason}): no byte of the request left, so its rows stay pending; check --base-url (CLOUDTEL_BASE_URL), then run again to resume`,
	);
}

/** The fatal error for an answer that refused a whole request. */
export function refusal(status: number, detail: string, propertySid: string): FatalError {
	if (status === 401)
		return new FatalError(
			`the provider refused the credentials (HTTP 401, ${detail}): check CLOUDTEL_ACCOUNT_SID and CLOUDTEL_AUTH_TOKEN`,
		);
	if (status === 404) {
		const unknown = `the provider does not know property ${propertySid} in this account (HTTP 404, ${detail})`;
		return new SettingError('propertySid', unknown, `${unknown}: check --property`, 1);
	}
	return new FatalError(
		`the provider refused the batch (HTTP ${status}, ${detail}); no row of it was sent`,
	);
}
