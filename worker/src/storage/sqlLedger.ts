import type { CampaignSpec } from '../settings/campaignSpec';
import {
	forgottenKey,
	inTimeOrder,
	type ContactEvent,
	type ContactHistory,
	type ForgetResult,
} from './contact';
import { ownerIsAlive } from './ownerIsAlive';
import { readDashboardCampaigns, readDashboardFigures } from './dashboardFigures';
import { campaignRecord, type CampaignDbRow, type RecipientDbRow } from './ledgerDbRows';
import {
	ROW_STATUSES,
	type CampaignCounts,
	type CampaignPhase,
	type CancelledBy,
	type CampaignRecord,
	type DeliveredRow,
	type DeliveryCounts,
	type DeliveryRecord,
	type ImportRow,
	type InputMark,
	type Ledger,
	type LedgerRow,
	type RetryableRow,
	type PendingRow,
	type ReplyRecord,
	type ReportFigures,
	type RowStatus,
	type RunOwner,
	type SettledRow,
	type CallbacksStamp,
	type ConsentKind,
	type ConsentRecord,
	type PendingReview,
	type PausedBy,
	type Outcomes,
	type DashboardCampaign,
	type DashboardFigures,
	type FigureLines,
} from './ledger';
import { BRAKE_FROM_KEY, CANCELLED_BY_KEY, guardSql, PAUSED_BY_KEY, SPEND_KEY } from './guardSql';
import {
	ANSWER_LOST,
	CALLBACKS_IN,
	CANCELLED,
	SUPPRESSED,
	ledgerSql,
	type LedgerSql,
} from './ledgerSql';
import { linkSql } from './linkSql';
import { SqlLinkStore } from './sqlLinkStore';
import { VariantStore } from './variantStore';
import { all, get, raw, run, type SqlDb, type TxMode, type Work } from './work';
import { optOutOf, type ConsentTrailEvent, type EvidenceRow } from './evidence';
import { evidenceSql } from './evidenceSql';
import { retrySql } from './retrySql';
import { WORKER_ID } from './workerId';

/** Rows read per query by the readers that page (rows, numbers, suppressions), which hold no cursor open between pages. */
const PAGE = 2_000;
/** Answers copied into the MessageSid index per transaction. */
const INDEX_PAGE = 100;
/** The lock a settle holds shared and the MessageSid indexer alone: answers below the indexer's mark are all committed. */
const ANSWERS_LOCK = 'cloudtel:answers';

/** A pending row as the send path reads it: line, to, text, segments, time zone, suppressed. */
type SendableRow = [
	line: number,
	to: string,
	text: string,
	segments: number,
	timeZone: string | null,
	suppressed: number | boolean,
	variant: number | null,
];

interface Submission {
	chunk: number;
	first: number;
	last: number;
	/** When its request left; null in submissions made before SQLite schema 6. */
	at: number | null;
}

export function pendingRow([
	line,
	to,
	text,
	segments,
	timeZone,
	suppressed,
	variant,
]: SendableRow): PendingRow {
	const row: PendingRow = {
		line,
		to,
		text,
		segments,
		timeZone: timeZone ?? undefined,
		suppressed: suppressed === 1 || suppressed === true,
	};
	if (variant !== null && variant !== undefined) row.variant = variant;
	return row;
}

/** An answer's accepted messages as the ledger stores them: [line, MessageSid] in line order. */
type SidPairs = [line: number, messageSid: string][];

/**
 * After a crash (or a lost worker): the rows of a chunk whose answer never came are
 * `uncertain`, never pending, or `accepted` where their receipt has come. Returns the rows
 * it settled, and drops the chunk.
 */
export function* recoverChunk(
	q: LedgerSql,
	campaign: string,
	c: Submission,
	message = ANSWER_LOST,
): Work<{ line: number; status: 'accepted' | 'uncertain' }[]> {
	const range = [campaign, c.first, c.last, c.at ?? null];
	yield* run(q.timeRecovered, ...range);
	yield* run(q.indexRecovered, campaign, c.first, c.last);
	const accepted = yield* all<{ line: number }>(q.resolveRecovered, ...range);
	const uncertain = yield* all<{ line: number }>(q.recover, ...range, message);
	yield* run(q.dropSubmission, campaign, c.chunk);
	return [
		...accepted.map((r) => ({ line: r.line, status: 'accepted' as const })),
		...uncertain.map((r) => ({ line: r.line, status: 'uncertain' as const })),
	];
}

/**
 * The ledger, one implementation for SQLite and Postgres over their one data model: a
 * chunk on its way is a submission (a range of lines whose pending rows are `submitting`),
 * an answer's MessageSids are one `answers` row per chunk, indexed by MessageSid when a
 * receipt needs it. Every call is its own transaction; the backend runs it (SqlDb).
 */
/** Rows of a campaign's evidence read at once. */
const EVIDENCE_PAGE = 500;

/** The tables an erasure deletes from or rewrites, the API campaigns' pages among them. */
const ERASED_TABLES = [
	'recipients',
	'deliveries',
	'replies',
	'message_sids',
	'answers',
	'suppressions',
	'consent_events',
	'callback_events',
	'forwards',
	'api_pages',
	'links',
	'link_clicks',
];

export class SqlLedger implements Ledger {
	protected readonly q: LedgerSql;
	private readonly g: ReturnType<typeof guardSql>;
	readonly variants: VariantStore;

	constructor(protected readonly db: SqlDb) {
		this.q = ledgerSql(db.dialect);
		this.g = guardSql(db.dialect);
		this.variants = new VariantStore(db);
	}

	/** Tracked links and their clicks, on this ledger's connection. */
	links(): SqlLinkStore {
		return new SqlLinkStore(this.db);
	}

	protected tx<T>(work: (q: LedgerSql) => Work<T>, mode?: TxMode): Promise<T> {
		return this.db.tx(work(this.q), mode);
	}

	async campaign(name: string): Promise<CampaignRecord | undefined> {
		return campaignRecord(await this.db.run(get<CampaignDbRow>(this.q.campaign, name)));
	}

	async createCampaign(spec: CampaignSpec): Promise<CampaignRecord> {
		// Two new runs of one name started together both get here: the second gets the first's
		// campaign, and the claim that follows names the run holding it (not a UNIQUE failure).
		await this.db.run(run(this.q.insertCampaign, spec.name, JSON.stringify(spec), Date.now()));
		return (await this.campaign(spec.name))!;
	}

	async claim(name: string, owner: RunOwner, staleMs: number): Promise<RunOwner | undefined> {
		return this.tx(function* (q) {
			if (q.lock) yield* run(q.lock, `campaign:${name}`);
			const current = campaignRecord(yield* get<CampaignDbRow>(q.campaign, name))?.owner;
			if (current && current.token !== owner.token && ownerIsAlive(current, staleMs))
				return current;
			yield* run(q.setOwner, owner.pid, owner.host, owner.token, Date.now(), name);
			return undefined;
		});
	}

	async heartbeat(name: string, owner: RunOwner): Promise<void> {
		await this.db.run(run(this.q.heartbeat, Date.now(), name, owner.token));
	}

	async release(name: string, owner: RunOwner): Promise<void> {
		await this.db.run(run(this.q.release, name, owner.token));
	}

	async setPhase(name: string, phase: CampaignPhase, cancelledBy?: CancelledBy): Promise<void> {
		const g = this.g;
		await this.tx(function* (q) {
			yield* run(q.setPhase, phase, Date.now(), name);
			if (cancelledBy)
				yield* run(g.setPausedBy, CANCELLED_BY_KEY + name, JSON.stringify(cancelledBy));
		});
	}

	async setPaused(name: string, paused: boolean, by?: PausedBy): Promise<void> {
		const g = this.g;
		await this.tx(function* (q) {
			yield* run(q.setPaused, paused ? 1 : 0, Date.now(), name);
			if (by) yield* run(g.setPausedBy, PAUSED_BY_KEY + name, JSON.stringify(by));
			else yield* run(g.forget, PAUSED_BY_KEY + name);
		});
	}

	async spent(key: string): Promise<number> {
		const row = await this.db.run(get<{ micros: number | string }>(this.g.spent, key));
		return Number(row?.micros ?? 0);
	}

	async latestOutcomes(name: string, limit: number, throughLine: number): Promise<Outcomes> {
		const g = this.g;
		return this.db.run(
			(function* () {
				const from = yield* get<{ line: number | string }>(g.brakeFrom, BRAKE_FROM_KEY + name);
				const rows = yield* all<{ failed: number | string; code: string }>(
					g.outcomes,
					name,
					Number(from?.line ?? 0),
					limit,
					throughLine,
				);
				const failedByCode: Record<string, number> = Object.create(null);
				let failed = 0;
				for (const r of rows)
					if (Number(r.failed) === 1) {
						failed++;
						failedByCode[r.code] = (failedByCode[r.code] ?? 0) + 1;
					}
				return { total: rows.length, failed, failedByCode };
			})(),
		);
	}

	async markOutcomesSeen(name: string): Promise<void> {
		const g = this.g;
		await this.tx(function* () {
			const through = yield* get<{ line: number | null }>(g.sentThrough, name);
			yield* run(g.setPausedBy, BRAKE_FROM_KEY + name, String(through?.line ?? 0));
		});
	}

	async cappedAmong(
		numbers: readonly string[],
		campaign: string,
		sinceMs: number,
		count: number,
	): Promise<Set<string>> {
		if (numbers.length === 0) return new Set();
		const rows = await this.db.run(
			all<{ number: string; n: number | string }>(
				this.g.sendsTo,
				JSON.stringify(numbers),
				campaign,
				sinceMs,
			),
		);
		return new Set(rows.filter((r) => Number(r.n) >= count).map((r) => r.number));
	}

	async reserveSpend(key: string, micros: number, capMicros: number): Promise<boolean> {
		const g = this.g;
		return this.tx(function* () {
			yield* run(g.ensure, key);
			return (yield* run(g.reserve, key, micros, capMicros)) > 0;
		});
	}

	async releaseSpend(key: string, micros: number): Promise<void> {
		if (micros > 0) await this.db.run(run(this.g.release, key, micros));
	}

	async deleteCampaign(name: string, purge = false): Promise<boolean | undefined> {
		const g = this.g;
		const shared = this.db.dialect.name === 'postgres' ? ['pacing'] : [];
		await this.tx(
			function* (q) {
				for (const table of [
					'recipients',
					'submissions',
					'deliveries',
					'answers',
					'message_sids',
					'replies',
					'variant_decisions',
					'links',
					'link_clicks',
					...shared,
					'campaigns',
				])
					yield* run(q.deleteFrom(table), name);
				// A cron run's record (in a SQLite file once a worker has used it): left behind, a
				// restart would send the run again from its first row, and retention would take a new
				// campaign of the same name.
				if (yield* get(q.tableExists, 'campaign_runs'))
					yield* run(q.deleteFrom('campaign_runs'), name);
				yield* run(q.clampIndexedThrough);
				for (const key of [SPEND_KEY, PAUSED_BY_KEY, BRAKE_FROM_KEY, CANCELLED_BY_KEY])
					yield* run(g.forget, key + name);
				// Its receipts and replies as the worker stored them, and their forwards: each names
				// the campaign in its ExternalId, `"<campaign>:<row>"`. Opt-outs stay: they are the person's.
				if (purge)
					for (const table of ['callback_events', 'forwards'])
						if (yield* get(q.tableExists, table))
							yield* run(q.eraseCallbacks(table), `"${JSON.stringify(name).slice(1, -1)}:`);
			},
			purge ? 'erase' : 'write',
		);
		return purge ? this.db.reclaim(ERASED_TABLES) : undefined;
	}

	async importBatch(
		name: string,
		rows: ImportRow[],
		throughLine: number,
		input?: InputMark,
		consents: readonly ConsentRecord[] = [],
	): Promise<void> {
		// One per number, the first in the list: the batch's own repeats are not stored twice.
		const numbers = new Set<string>();
		const consentJson = JSON.stringify(
			consents
				.filter((c) => !numbers.has(c.number) && numbers.add(c.number))
				.map((c) => [c.number, c.at, c.source]),
		);
		const json = JSON.stringify(
			rows.map((r) => [
				r.line,
				r.to ?? null,
				r.text ?? null,
				r.segments,
				r.status,
				r.errorCode ?? null,
				r.message ?? null,
				r.timeZone ?? null,
				r.variant ?? null,
			]),
		);
		const links = rows.flatMap((r) => (r.links ?? []).map((l) => [l.token, r.line, l.url]));
		const insertLinks = links.length > 0 ? linkSql(this.db.dialect).insertLinks : undefined;
		const now = Date.now();
		await this.tx(function* (q) {
			if (rows.length > 0) yield* run(q.insertRows, name, json);
			// In the same transaction as the rows: a resumed import makes tokens only for rows it stores.
			if (insertLinks) yield* run(insertLinks, name, JSON.stringify(links), now);
			if (consents.length > 0) yield* run(q.addConsents, consentJson);
			yield* run(q.setImported, throughLine, Date.now(), name);
			if (input)
				yield* run(q.setInput, input.bytes, input.hash, input.size, input.mtimeMs ?? null, name);
		});
	}

	async *campaignNumbers(name: string): AsyncIterable<string> {
		for (let after = 0; ; ) {
			const page = await this.db.run(
				all<{ line: number; to_number: string }>(this.q.numbers, name, after, PAGE),
			);
			for (const r of page) yield r.to_number;
			if (page.length < PAGE) return;
			after = page[page.length - 1].line;
		}
	}

	async recoverSubmitting(name: string): Promise<number> {
		return this.tx(function* (q) {
			let n = 0;
			for (const c of yield* all<Submission>(q.submissions, name))
				n += (yield* recoverChunk(q, name, c)).filter((r) => r.status === 'uncertain').length;
			return n;
		});
	}

	async requeueUncertain(name: string): Promise<number> {
		return this.tx(function* (q) {
			yield* run(q.timeResolvedUncertain, name);
			yield* run(q.indexResolvedUncertain, name);
			yield* run(q.resolveUncertain, name);
			return yield* run(q.requeue, name);
		});
	}

	async requeueUncertainWith(name: string, messages: readonly string[]): Promise<number> {
		return this.db.run(run(this.q.requeueWith, name, JSON.stringify(messages)));
	}

	async peekPending(name: string, limit: number, afterLine = 0): Promise<PendingRow[]> {
		const rows = await this.db.run(raw<SendableRow>(this.q.peek, name, afterLine, limit));
		return rows.map(pendingRow);
	}

	async markSuppressed(name: string, lines: number[]): Promise<void> {
		await this.db.run(run(this.q.suppressRows, name, JSON.stringify(lines), SUPPRESSED));
	}

	async markSubmitting(name: string, lines: number[], chunk: number): Promise<void> {
		await (
			await this.markSubmittingCommitted(name, lines, chunk)
		).durable;
	}

	async markSubmittingCommitted(
		name: string,
		lines: number[],
		chunk: number,
	): Promise<{ durable: Promise<void> }> {
		let first = Infinity;
		let last = -Infinity;
		for (const line of lines) {
			if (line < first) first = line;
			if (line > last) last = line;
		}
		const q = this.q;
		const marked = await this.db.durableTx(
			(function* () {
				if (q.lock) yield* run(q.lock, `campaign:${name}`);
				// The submission stands for the pending rows of its range, so they must be exactly
				// these lines, none of them already on its way in another chunk.
				const other = yield* get<{
					chunk: number | string;
					first: number;
					last: number;
					worker: string | null;
				}>(q.overlapping, name, last, first);
				// This very mark, committed by an attempt whose answer was lost with its connection (a
				// Postgres restarting; ridingOutRestarts makes the call again): it stands, and the chunk goes.
				if (
					other &&
					Number(other.chunk) === chunk &&
					other.first === first &&
					other.last === last &&
					other.worker === WORKER_ID
				)
					return;
				if (other) {
					const taken = lines.find((line) => line >= other.first && line <= other.last);
					throw new Error(
						taken !== undefined
							? `row ${taken} of ${name} is no longer pending`
							: `rows of ${name} between lines ${first} and ${last} are already being submitted`,
					);
				}
				const pending = (yield* all<{ line: number }>(q.pendingIn, name, first, last)).map(
					(r) => r.line,
				);
				const wanted = new Set(lines);
				if (
					pending.length !== wanted.size ||
					pending.length !== lines.length ||
					!pending.every((line) => wanted.has(line))
				) {
					const isPending = new Set(pending);
					const missing = lines.find((line) => !isPending.has(line));
					throw new Error(
						missing !== undefined
							? `row ${missing} of ${name} is no longer pending`
							: `rows of ${name} between lines ${first} and ${last} changed under this run`,
					);
				}
				yield* run(q.addSubmission, name, chunk, first, last, Date.now(), WORKER_ID);
			})(),
		);
		return { durable: marked.durable };
	}

	async settle(name: string, chunk: number, rows: SettledRow[]): Promise<void> {
		const accepted: SidPairs = [];
		const others: SettledRow[] = [];
		for (const r of rows) {
			if (r.status === 'accepted' && r.messageSid !== undefined)
				accepted.push([r.line, r.messageSid]);
			else
				others.push(
					r.status === 'suppressed' ? { ...r, errorCode: 'SUPPRESSED', message: SUPPRESSED } : r,
				);
		}
		accepted.sort((x, y) => x[0] - y[0]);
		await this.tx(function* (q) {
			if (q.lockShared) yield* run(q.lockShared, ANSWERS_LOCK);
			// When the request left: an uncertain row keeps it, for the report, should a receipt show it was sent.
			const attemptedAt =
				(yield* get<{ at: number | null }>(q.dropSubmission, name, chunk))?.at ?? null;
			if (others.length > 0) {
				yield* run(
					q.settleRows,
					name,
					JSON.stringify(
						others.map((r) => [r.line, r.status, null, r.errorCode ?? null, r.message ?? null]),
					),
					attemptedAt,
				);
				const rejected = others.filter((r) => r.status === 'rejected').map((r) => r.line);
				if (rejected.length > 0) yield* run(q.dropReceipts, name, JSON.stringify(rejected));
			}
			if (accepted.length === 0) return;
			const first = accepted[0][0];
			const last = accepted[accepted.length - 1][0];
			if (others.length === 0) {
				// The whole chunk accepted (nearly every answer): one statement over the range. The
				// chunk is every pending row of its range, as the mark made sure.
				const changed = yield* run(q.acceptRange, name, first, last);
				if (changed !== accepted.length)
					throw new Error(
						`the answer for lines ${first} to ${last} of ${name} accepts ${accepted.length} rows, but ${changed} were waiting for it`,
					);
			} else yield* run(q.acceptLines, name, JSON.stringify(accepted.map(([line]) => line)));
			// The MessageSids in one row per answer, not a column written on each row: an UPDATE
			// per row, each growing its row, was the largest cost of storing an answer.
			const sids = JSON.stringify(accepted);
			yield* run(q.addAnswer, name, first, last, sids, Date.now());
			yield* run(q.dropForeignReceipts, name, first, last, sids);
		}, 'lazy');
	}

	async cancelPending(name: string): Promise<number> {
		return this.db.run(run(this.q.cancel, name, CANCELLED));
	}

	async counts(name: string): Promise<CampaignCounts> {
		const [byStatus, submitting] = await this.tx(function* (q) {
			return [
				yield* all<{ status: RowStatus; n: number; segs: number | null }>(q.counts, name),
				(yield* get<{ n: number }>(q.submittingCount, name))!.n,
			] as const;
		}, 'read');
		const rows = Object.fromEntries(ROW_STATUSES.map((s) => [s, 0])) as Record<RowStatus, number>;
		let total = 0;
		let acceptedSegments = 0;
		let sendableSegments = 0;
		for (const r of byStatus) {
			rows[r.status] = r.n;
			total += r.n;
			if (r.status === 'accepted') acceptedSegments = r.segs ?? 0;
			if (r.status === 'accepted' || r.status === 'pending' || r.status === 'uncertain')
				sendableSegments += r.segs ?? 0;
		}
		// Pending rows of a chunk on its way are submitting.
		rows.submitting += submitting;
		rows.pending -= submitting;
		return { rows, total, acceptedSegments, sendableSegments };
	}

	async *rows(
		name: string,
		statuses?: RowStatus[],
		limit = Number.MAX_SAFE_INTEGER,
		afterLine = 0,
	): AsyncIterable<LedgerRow> {
		let n = 0;
		const submissions = await this.db.run(all<Submission>(this.q.submissions, name));
		const submitting = (line: number) => submissions.some((c) => line >= c.first && line <= c.last);
		// `submitting` is stored as pending inside a submission's range.
		const stored =
			statuses?.includes('submitting') && !statuses.includes('pending')
				? [...statuses, 'pending' as const]
				: statuses;
		// Answers read so far whose range reaches past the last page: their rows may be on the next.
		let answers: { first: number; last: number; sids: string; byLine?: Map<number, string> }[] = [];
		let answersThrough = 0;
		// A page at a time, with no cursor left open, so callers may write between rows.
		for (let after = afterLine; ; ) {
			const page = await this.db.run(
				all<RecipientDbRow>(
					stored ? this.q.rowsWith(stored.length) : this.q.rowsPage,
					name,
					after,
					PAGE,
					...(stored ?? []),
				),
			);
			if (page.length === 0) return;
			const last = page[page.length - 1].line;
			if (page.some((r) => r.status === 'accepted' && r.message_sid === null)) {
				answers = answers
					.filter((a) => a.last > after)
					.concat(
						await this.db.run(all(this.q.answersFor, name, answersThrough + 1, last, page[0].line)),
					);
				answersThrough = last;
			}
			for (const r of page) {
				const status =
					r.status === 'pending' && submissions.length > 0 && submitting(r.line)
						? 'submitting'
						: r.status;
				if (statuses && !statuses.includes(status)) continue;
				if (n++ >= limit) return;
				yield {
					line: r.line,
					to: r.to_number ?? undefined,
					text: r.text ?? undefined,
					segments: r.segments,
					status,
					errorCode: r.error_code ?? undefined,
					message: r.message ?? undefined,
					// A row accepted through its receipt, or stored before answers, holds its MessageSid; the rest are in their answer.
					messageSid: r.message_sid ?? (status === 'accepted' ? sidIn(answers, r.line) : undefined),
				};
			}
			if (page.length < PAGE) return;
			after = last;
		}
	}

	async isSuppressed(number: string): Promise<boolean> {
		return (
			(await this.db.run(get(this.q.isSuppressed, number, forgottenKey(number)))) !== undefined
		);
	}

	async suppressedAmong(numbers: readonly string[]): Promise<Set<string>> {
		if (numbers.length === 0) return new Set();
		return new Set(
			(
				await this.db.run(all<{ number: string }>(this.q.suppressedAmong, JSON.stringify(numbers)))
			).map((r) => r.number),
		);
	}

	async stampCallbacksIn(worker: string, where?: { host: string; pid: number }): Promise<void> {
		await this.db.run(
			run(
				this.q.stampCallbacksIn,
				`${CALLBACKS_IN}${worker}`,
				where ? ` ${where.host} ${where.pid}` : '',
			),
		);
	}

	async dropCallbacksStamp(worker: string): Promise<void> {
		await this.db.run(run(this.q.dropCallbacksStamp, `${CALLBACKS_IN}${worker}`));
	}

	async callbacksStamps(): Promise<CallbacksStamp[]> {
		const rows = await this.db.run(
			all<{ key: string; value: string; now: number }>(this.q.callbacksStamps),
		);
		return rows.map((r) => {
			const [at, host, pid] = r.value.split(' ');
			return {
				worker: r.key.slice(CALLBACKS_IN.length),
				ageMs: Number(r.now) - Number(at),
				...(host && pid ? { host, pid: Number(pid) } : {}),
			};
		});
	}

	async *suppressions(): AsyncIterable<string> {
		for (let after = ''; ; ) {
			const page = await this.db.run(all<{ number: string }>(this.q.suppressions, after, PAGE));
			for (const r of page) yield r.number;
			if (page.length < PAGE) return;
			after = page[page.length - 1].number;
		}
	}

	async addSuppression(number: string, reason: string): Promise<void> {
		const now = Date.now();
		await this.tx(function* (q) {
			yield* run(q.addSuppression, number, reason, now);
			yield* run(q.consentEvent, number, now, 'opt-out', reason);
		});
	}

	async suppressPermanentFailure(number: string, reason: string): Promise<void> {
		await this.db.run(run(retrySql(this.db.dialect).suppressPermanent, number, reason, Date.now()));
	}

	async liftPermanentFailure(number: string, prefix: string): Promise<boolean> {
		return (await this.db.run(run(retrySql(this.db.dialect).liftPermanent, number, prefix))) > 0;
	}

	async retryableRows(name: string, codes: readonly string[]): Promise<RetryableRow[]> {
		const rows = await this.db.run(
			all<{ line: number; to_number: string; text: string | null; time_zone: string | null }>(
				retrySql(this.db.dialect).retryableRows,
				name,
				JSON.stringify(codes),
			),
		);
		return rows.map((r) => ({
			line: Number(r.line),
			to: r.to_number,
			text: r.text ?? '',
			...(r.time_zone ? { timeZone: r.time_zone } : {}),
		}));
	}

	async removeSuppression(number: string, reason = 'replied to opt in'): Promise<boolean> {
		const now = Date.now();
		return this.tx(function* (q) {
			const removed = (yield* run(q.removeSuppression, number)) > 0;
			yield* run(
				q.consentEvent,
				number,
				now,
				'opt-in',
				removed ? reason : `${reason} (was not suppressed)`,
			);
			return removed;
		});
	}

	async *evidence(name: string): AsyncIterable<EvidenceRow> {
		const q = evidenceSql(this.db.dialect);
		const page: LedgerRow[] = [];
		const flush = async function* (this: SqlLedger): AsyncIterable<EvidenceRow> {
			if (page.length === 0) return;
			const first = page[0].line;
			const last = page[page.length - 1].line;
			const times = new Map(
				(
					await this.db.run(
						all<{
							line: number;
							attempted_at: number | string | null;
							receipt_status: string | null;
							receipt_at: number | string | null;
							answered_at: number | string | null;
						}>(q.rowTimes, name, first, last),
					)
				).map((t) => [t.line, t]),
			);
			const replies = await this.db.run(
				all<{ line: number; at: number | string; opt_out: number | boolean }>(
					q.replies,
					name,
					first,
					last,
				),
			);
			const numbers = [...new Set(page.flatMap((r) => (r.to ? [r.to] : [])))];
			const trails = new Map<string, ConsentTrailEvent[]>();
			for (const e of await this.db.run(
				all<{ number: string; at: number | string; kind: string; reason: string }>(
					q.trails,
					JSON.stringify(numbers),
				),
			)) {
				const list = trails.get(e.number) ?? [];
				list.push({ at: Number(e.at), kind: e.kind, reason: e.reason });
				trails.set(e.number, list);
			}
			const num = (v: number | string | null | undefined) => (v == null ? undefined : Number(v));
			for (const r of page) {
				const t = times.get(r.line);
				const sent = r.status === 'accepted' || r.status === 'uncertain';
				const handedOverAt = sent
					? r.status === 'accepted'
						? (num(t?.answered_at) ?? num(t?.attempted_at))
						: num(t?.attempted_at)
					: undefined;
				const mine = replies.filter((p) => p.line === r.line);
				const trail = (r.to && trails.get(r.to)) || [];
				const consent = trail.find((e) => e.kind === 'consent');
				const optOutReply = mine.find((p) => Boolean(p.opt_out));
				yield {
					line: r.line,
					...(r.to !== undefined ? { number: r.to } : {}),
					...(consent ? { consentSource: consent.reason, consentAt: consent.at } : {}),
					status: r.status,
					...(r.text !== undefined ? { text: r.text } : {}),
					...(handedOverAt !== undefined ? { handedOverAt } : {}),
					...(r.messageSid !== undefined ? { messageSid: r.messageSid } : {}),
					...(t?.receipt_status ? { receiptStatus: t.receipt_status } : {}),
					...(t?.receipt_at != null ? { receiptAt: Number(t.receipt_at) * 1000 } : {}),
					replies: mine.map((p) => Number(p.at)),
					...optOutOf(trail, handedOverAt, optOutReply && Number(optOutReply.at)),
				};
			}
			page.length = 0;
		};
		for await (const r of this.rows(name)) {
			page.push(r);
			if (page.length === EVIDENCE_PAGE) yield* flush.call(this);
		}
		yield* flush.call(this);
	}

	async campaignOptOuts(
		name: string,
	): Promise<{ replyAt: number; suppressedAt?: number; reason?: string }[]> {
		const rows = await this.db.run(
			all<{
				reply_at: number | string;
				suppressed_at: number | string | null;
				reason: string | null;
			}>(evidenceSql(this.db.dialect).campaignOptOuts, name),
		);
		return rows.map((r) => ({
			replyAt: Number(r.reply_at),
			...(r.suppressed_at != null ? { suppressedAt: Number(r.suppressed_at) } : {}),
			...(r.reason != null ? { reason: r.reason } : {}),
		}));
	}

	async recordConsent(number: string, kind: ConsentKind, reason: string): Promise<void> {
		const now = Date.now();
		await this.tx(function* (q) {
			yield* run(q.consentEvent, number, now, kind, reason);
		});
	}

	async consentedAmong(numbers: readonly string[]): Promise<Set<string>> {
		const rows = await this.db.run(
			all<{ number: string }>(this.q.consentedAmong, JSON.stringify(numbers)),
		);
		return new Set(rows.map((r) => r.number));
	}

	async lastConsent(number: string, kind: ConsentKind): Promise<number | undefined> {
		const row = await this.db.run(
			get<{ at: number | string | null }>(this.q.lastConsentEvent, number, kind),
		);
		return row?.at == null ? undefined : Number(row.at);
	}

	async pendingReviews(): Promise<PendingReview[]> {
		const rows = await this.db.run(
			all<{ number: string; at: number | string; reason: string }>(this.q.pendingReviews),
		);
		return rows.map((r) => ({ number: r.number, at: Number(r.at), reason: r.reason }));
	}

	async contactHistory(number: string): Promise<ContactHistory> {
		const clicks = linkSql(this.db.dialect).rowClicks;
		return this.tx(function* (q): Work<ContactHistory> {
			const events: ContactEvent[] = [];
			const rows = yield* all<{
				campaign: string;
				line: number;
				status: string;
				text: string | null;
				message_sid: string | null;
				attempted_at: number | null;
				message: string | null;
			}>(q.contactRows, number);
			for (const r of rows) {
				const a = yield* get<{ sids: string; at: number | null }>(
					q.contactAnswer,
					r.campaign,
					r.line,
				);
				const sid =
					r.message_sid ??
					(a ? (JSON.parse(a.sids) as SidPairs).find(([line]) => line === r.line)?.[1] : undefined);
				const sentAt =
					r.status === 'accepted' || r.status === 'rejected'
						? (a?.at ?? r.attempted_at ?? undefined)
						: (r.attempted_at ?? undefined);
				events.push({
					at: sentAt,
					kind: 'message',
					campaign: r.campaign,
					line: r.line,
					status: r.status,
					text: r.text ?? undefined,
					messageSid: sid,
					detail: r.message ?? undefined,
				});
				const d = yield* get<{
					message_sid: string;
					status: string;
					error_code: string | null;
					at: number;
					received_at: number | null;
				}>(q.delivery, r.campaign, r.line);
				if (d)
					events.push({
						at: d.received_at ?? d.at * 1000,
						kind: 'receipt',
						campaign: r.campaign,
						line: r.line,
						status: d.status,
						messageSid: d.message_sid,
						detail: d.error_code ?? undefined,
					});
				for (const p of yield* all<{
					message_sid: string;
					at: number;
					opt_out: number | boolean;
					payload: string | null;
				}>(q.contactReplies, r.campaign, r.line)) {
					events.push({
						at: p.at,
						kind: 'reply',
						campaign: r.campaign,
						line: r.line,
						messageSid: p.message_sid,
						detail: p.opt_out ? 'opted out' : undefined,
						text: replyText(p.payload),
					});
				}
				for (const c of yield* all<{ at: number; prefetch: number | boolean; url: string | null }>(
					clicks,
					r.campaign,
					r.line,
				))
					events.push({
						at: Number(c.at),
						kind: 'click',
						campaign: r.campaign,
						line: r.line,
						text: c.url ?? undefined,
						detail: c.prefetch === true || c.prefetch === 1 ? 'prefetch' : undefined,
					});
			}
			for (const c of yield* all<{ at: number; kind: ContactEvent['kind']; reason: string }>(
				q.consentEvents,
				number,
			))
				events.push({ at: c.at, kind: c.kind, detail: c.reason });
			const s = yield* get<{ reason: string; created_at: number }>(q.suppression, number);
			return {
				number,
				suppressed: s ? { reason: s.reason, since: s.created_at } : undefined,
				events: inTimeOrder(events),
			};
		}, 'read');
	}

	async forgetContact(number: string): Promise<ForgetResult> {
		const erased = await this.tx(function* (q): Work<Omit<ForgetResult, 'reclaimed'>> {
			const rows = yield* all<{ campaign: string; line: number }>(q.contactRows, number);
			for (const table of [
				'deliveries',
				'replies',
				'message_sids',
				'link_clicks',
				'links',
				'recipients',
			])
				for (const r of rows) yield* run(q.eraseRow(table), r.campaign, r.line);
			const key = forgottenKey(number);
			yield* run(q.dropKeyIfBoth, key, number);
			const kept = (yield* run(q.rekeySuppression, key, number)) > 0;
			yield* run(q.rekeyConsent, key, number);
			// The worker's tables, where they share the database: the callbacks it stored and the
			// forwards of replies carry the number in their payload.
			let callbacks = 0;
			for (const table of ['callback_events', 'forwards'])
				if (yield* get(q.tableExists, table))
					callbacks += yield* run(q.eraseCallbacks(table), JSON.stringify(number).slice(1, -1));
			return {
				rows: rows.length,
				campaigns: [...new Set(rows.map((r) => r.campaign))].sort(),
				suppressionKept: kept,
				callbacks,
			};
		}, 'erase');
		return { ...erased, reclaimed: await this.db.reclaim(ERASED_TABLES) };
	}

	async recordDelivery(receipt: DeliveryRecord): Promise<DeliveredRow | undefined> {
		const sid = receipt.messageSid;
		const named =
			receipt.campaign !== undefined && receipt.line !== undefined
				? { campaign: receipt.campaign, line: receipt.line }
				: undefined;
		// The row that sent this MessageSid; else the row its ExternalId names, only while that
		// row's MessageSid is not known (uncertain, or on its way): an ExternalId is anyone's to
		// write, a MessageSid is the provider's.
		const row =
			(await this.rowOfSid(sid)) ??
			(named && (await this.db.run(get(this.q.awaitsSid, named.campaign, named.line)))
				? named
				: undefined);
		if (!row) return undefined;
		const { campaign, line } = row;
		return this.tx(function* (q): Work<DeliveredRow> {
			yield* run(
				q.recordDelivery,
				campaign,
				line,
				sid,
				receipt.status,
				receipt.errorCode || null,
				receipt.at,
				receipt.receivedAt ?? null,
			);
			const resolved = (yield* run(q.resolveUncertainRow, sid, campaign, line)) > 0;
			if (resolved) yield* run(q.indexSid, sid, campaign, line);
			return { campaign, line, resolved };
		});
	}

	/**
	 * The row that sent this MessageSid, through the MessageSid index (brought up to date first
	 * when it lacks it). Looked up again even when this copy added nothing: another worker may
	 * have indexed the answer between the first look and the copy.
	 */
	private async rowOfSid(sid: string): Promise<{ campaign: string; line: number } | undefined> {
		const row = await this.db.run(get<{ campaign: string; line: number }>(this.q.rowBySid, sid));
		if (row) return row;
		await this.indexAnswers();
		return this.db.run(get<{ campaign: string; line: number }>(this.q.rowBySid, sid));
	}

	async sentTo(messageSid: string): Promise<string | undefined> {
		const row = await this.rowOfSid(messageSid);
		return (
			row &&
			((
				await this.db.run(
					get<{ to_number: string | null }>(this.q.rowNumber, row.campaign, row.line),
				)
			)?.to_number ??
				undefined)
		);
	}

	/**
	 * Copies the MessageSids of answers stored since the last copy into message_sids, a page
	 * of answers per transaction: a campaign writing meanwhile waits for one page at a time,
	 * not for the whole backlog. Returns how many were added.
	 */
	private async indexAnswers(): Promise<number> {
		// Looked at first without the write lock: most receipts find nothing new to copy.
		const unindexed = this.tx(function* (q) {
			return yield* get(
				q.answerAfter,
				Number((yield* get<{ value: string }>(q.indexedThrough))?.value ?? 0),
			);
		}, 'read');
		if (!(await unindexed)) return 0;
		let added = 0;
		for (let more = true; more; ) {
			more = await this.tx(function* (q) {
				if (q.lock) yield* run(q.lock, ANSWERS_LOCK);
				const through = Number((yield* get<{ value: string }>(q.indexedThrough))?.value ?? 0);
				const page = (yield* get<{ id: number | null; n: number }>(
					q.answersPageEnd,
					through,
					INDEX_PAGE,
				))!;
				if (page.id === null) return false;
				added += yield* run(q.indexAnswers, through, page.id);
				yield* run(q.setIndexedThrough, String(page.id));
				return Number(page.n) === INDEX_PAGE;
			});
		}
		return added;
	}

	async delivery(name: string, line: number): Promise<DeliveryRecord | undefined> {
		const r = await this.db.run(
			get<{
				message_sid: string;
				status: DeliveryRecord['status'];
				error_code: string | null;
				at: number;
				received_at: number | null;
			}>(this.q.delivery, name, line),
		);
		return (
			r && {
				messageSid: r.message_sid,
				campaign: name,
				line,
				status: r.status,
				errorCode: r.error_code ?? undefined,
				at: r.at,
				receivedAt: r.received_at ?? undefined,
			}
		);
	}

	async recordReply(reply: ReplyRecord): Promise<boolean> {
		return (
			(await this.db.run(
				run(
					this.q.recordReply,
					reply.campaign,
					reply.line,
					reply.messageSid,
					reply.at,
					reply.optOut ? 1 : 0,
				),
			)) > 0
		);
	}

	async deliveryCounts(name: string, acceptedRows?: number): Promise<DeliveryCounts> {
		const [codes, accepted, notAccepted, replies] = await this.tx(function* (q) {
			return [
				yield* all<{ status: DeliveryRecord['status']; code: string | null; n: number }>(
					q.receiptsByCode,
					name,
				),
				acceptedRows ?? (yield* get<{ n: number }>(q.acceptedCount, name))!.n,
				(yield* get<{ n: number }>(q.receiptsNotAccepted, name))!.n,
				(yield* get<{ replied: number; opted_out: number }>(q.replyCounts, name))!,
			] as const;
		}, 'read');
		const receipts = codes.reduce((sum, r) => sum + r.n, 0);
		// Keyed by the provider's ErrorCode: no key ("__proto__", "constructor") may reach a prototype.
		const out: DeliveryCounts = {
			delivered: 0,
			failed: 0,
			failedByCode: Object.create(null) as Record<string, number>,
			// Never below none: the caller's count of accepted rows may be a moment older.
			awaitingReceipt: Math.max(0, accepted - receipts + notAccepted),
			replied: replies.replied,
			optedOut: replies.opted_out,
		};
		for (const r of codes) {
			if (r.status === 'Delivered') out.delivered += r.n;
			else {
				out.failed += r.n;
				const code = r.code ?? '';
				out.failedByCode[code] = (out.failedByCode[code] ?? 0) + r.n;
			}
		}
		return out;
	}

	async activitySpan(name: string): Promise<{ from: number; to: number } | undefined> {
		type Span = { first: number | null; last: number | null };
		const [sent, attempted, received] = await this.tx(function* (q) {
			return [
				(yield* get<Span>(q.answersSpan, name))!,
				(yield* get<Span>(q.attemptedSpan, name))!,
				(yield* get<Span>(q.deliveriesSpan, name))!,
			] as const;
		}, 'read');
		const seconds = (ms: number | null) => (ms === null ? undefined : Math.floor(ms / 1000));
		const starts = [
			seconds(sent.first),
			seconds(attempted.first),
			received.first ?? undefined,
		].filter((v) => v !== undefined);
		const ends = [seconds(sent.last), seconds(attempted.last), received.last ?? undefined].filter(
			(v) => v !== undefined,
		);
		return starts.length === 0 ? undefined : { from: Math.min(...starts), to: Math.max(...ends) };
	}

	async reportFigures(name: string, bucketSeconds: number): Promise<ReportFigures> {
		return this.tx(function* (q): Work<ReportFigures> {
			return {
				failuresByPrefix: yield* all<ReportFigures['failuresByPrefix'][number]>(
					q.failuresByPrefix,
					name,
				),
				sends: addBuckets(
					yield* all<ReportFigures['sends'][number]>(q.sendBuckets, name, bucketSeconds),
					yield* all<ReportFigures['sends'][number]>(q.attemptBuckets, name, bucketSeconds),
				),
				deliveries: yield* all<ReportFigures['deliveries'][number]>(
					q.receiptBuckets,
					name,
					bucketSeconds,
				),
				receiptTenths: yield* all<ReportFigures['receiptTenths'][number]>(q.receiptTenths, name),
				sentByReceipt: (yield* get<{ n: number }>(q.acceptedByReceipt, name))!.n,
			};
		}, 'read');
	}

	async campaignNames(): Promise<string[]> {
		return (await this.db.run(all<{ name: string }>(this.q.campaignNames))).map((r) => r.name);
	}

	dashboardCampaigns(): Promise<DashboardCampaign[]> {
		return readDashboardCampaigns(this.db);
	}

	dashboardFigures(
		names: readonly string[],
		lines?: FigureLines,
	): Promise<Map<string, DashboardFigures>> {
		return readDashboardFigures(this.db, names, lines);
	}

	async close(): Promise<void> {
		await this.db.close();
	}
}

/** A row's MessageSid in the answers read for its page, each answer parsed once it is asked. */
function sidIn(
	answers: { first: number; last: number; sids: string; byLine?: Map<number, string> }[],
	line: number,
): string | undefined {
	for (const a of answers) {
		if (a.first > line || a.last < line) continue;
		a.byLine ??= new Map(JSON.parse(a.sids) as SidPairs);
		const sid = a.byLine.get(line);
		if (sid !== undefined) return sid;
	}
	return undefined;
}

/** Two lists of send buckets as one, in order, counts of the same bucket added. */
function addBuckets(a: ReportFigures['sends'], b: ReportFigures['sends']): ReportFigures['sends'] {
	if (b.length === 0) return a;
	const byStart = new Map(a.map((x) => [x.at, x.count]));
	for (const x of b) byStart.set(x.at, (byStart.get(x.at) ?? 0) + x.count);
	return [...byStart].sort((x, y) => x[0] - y[0]).map(([at, count]) => ({ at, count }));
}

/** The Text of a stored reply callback; undefined once retention or an erasure took it. */
function replyText(payload: string | null): string | undefined {
	if (payload === null) return undefined;
	try {
		const text = (JSON.parse(payload) as { data?: { Text?: unknown } }).data?.Text;
		return typeof text === 'string' ? text : undefined;
	} catch {
		return undefined;
	}
}
