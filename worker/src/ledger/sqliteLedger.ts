import type Database from 'better-sqlite3';
import { openDatabase } from './openDatabase';
import { forgottenKey, type ContactHistory, type ForgetResult } from './contact';
import { sqliteContactHistory, sqliteForgetContact } from './sqliteContact';
import type { CampaignSpec } from '../settings/campaignSpec';
import { FatalError } from '../errors';
import { ownerIsAlive } from './ownerIsAlive';
import { campaignRecord, type CampaignDbRow, type RecipientDbRow } from './ledgerDbRows';
import {
	type InputMark,
	ROW_STATUSES,
	type CampaignCounts,
	type CampaignPhase,
	type CampaignRecord,
	type DeliveredRow,
	type DeliveryCounts,
	type DeliveryRecord,
	type ImportRow,
	type Ledger,
	type LedgerRow,
	type PendingRow,
	type ReplyRecord,
	type ReportFigures,
	type RowStatus,
	type RunOwner,
	type SettledRow,
} from './ledger';
import { AnswerSidReader, decodeSids, encodeSids, type SidPairs, type StoredAnswer } from './answerSids';
import { INDEXES, MIGRATE_FROM_1, MIGRATE_FROM_2, SCHEMA, SCHEMA_VERSION } from './sqliteSchema';
import { prepareStatements, type Statements } from './sqliteStatements';
import { WalSync } from '../storage/sqlite/walSync';

/** Rows read per query by `rows()`, which holds no cursor open between them. */
const ROWS_PAGE = 2_000;
/** Answers copied into the MessageSid index per query. */
const INDEX_PAGE = 100;

interface Submission {
	chunk: number;
	first: number;
	last: number;
	/** When its request left; null in submissions made before schema 6. */
	at: number | null;
}

/**
 * The ledger in one SQLite file, in WAL mode so `campaign status` reads while a run
 * writes. Commits are NORMAL (a crash of the process loses nothing; power loss may lose
 * the last import batch, which is simply read again), except the `submitting` mark, which
 * is synced before the request leaves.
 */
export class SqliteLedger implements Ledger {
	private readonly db: Database.Database;
	private readonly s: Statements;
	/** Syncs the WAL file, from the first `submitting` mark on; null when the ledger is not in WAL mode. */
	private wal: WalSync | null | undefined;

	/** `readonly` opens an existing ledger for reading only, as `campaign status` does. */
	constructor(
		private readonly path: string,
		options: { readonly?: boolean } = {},
	) {
		this.db = openDatabase(path, SCHEMA, 'the ledger', options);
		// One read transaction for as long as it is open: every figure of a status or a report
		// is of the same moment, however many queries it takes while a run writes.
		if (options.readonly) this.db.exec('BEGIN');
		const version = this.db.prepare(`SELECT value FROM meta WHERE key = 'schema'`).pluck().get() as string | undefined;
		if (options.readonly && Number(version) !== SCHEMA_VERSION) throw new FatalError(`the ledger ${path} has schema ${version ?? 'none'}, this cloudtel reads ${SCHEMA_VERSION}: open it once with a writable campaign run to upgrade it`);
		if (version === undefined) this.db.prepare(`INSERT INTO meta (key, value) VALUES ('schema', ?)`).run(String(SCHEMA_VERSION));
		else if (Number(version) > SCHEMA_VERSION) throw new FatalError(`the ledger ${path} was written by a newer cloudtel (schema ${version})`);
		else if (Number(version) < SCHEMA_VERSION) this.migrate();
		if (!options.readonly) this.db.exec(INDEXES);
		this.s = prepareStatements(this.db);
	}

	/** Another process may open the same file at the same moment: the version is read again under the write lock. */
	private migrate(): void {
		this.db
			.transaction(() => {
				const version = Number(this.db.prepare(`SELECT value FROM meta WHERE key = 'schema'`).pluck().get());
				if (version === 1) this.db.exec(MIGRATE_FROM_1);
				if (version <= 2) this.db.exec(MIGRATE_FROM_2);
				// Schema 4: when answers were stored and receipts received; schema 5: when a
				// receipt's message was sent; schema 6: when a chunk's request left, and an uncertain
				// row's. A file older than these tables got them, columns included, from SCHEMA a
				// moment ago (with the index on deliveries).
				this.addColumn('answers', 'at');
				this.addColumn('deliveries', 'received_at');
				this.addColumn('deliveries', 'sent_at');
				this.addColumn('submissions', 'at');
				this.addColumn('recipients', 'attempted_at');
				// Schema 7: what an import had read of its CSV.
				this.addColumn('campaigns', 'input_bytes');
				this.addColumn('campaigns', 'input_hash', 'TEXT');
				this.addColumn('campaigns', 'input_size');
				this.addColumn('campaigns', 'input_mtime');
				if (version < SCHEMA_VERSION) this.db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema'`).run(String(SCHEMA_VERSION));
			})
			.immediate();
	}

	private addColumn(table: string, column: string, type = 'INTEGER'): void {
		const columns = this.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table);
		if (!columns.includes(column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
	}

	async campaign(name: string): Promise<CampaignRecord | undefined> {
		return campaignRecord(this.s.campaign.get(name) as CampaignDbRow | undefined);
	}

	async createCampaign(spec: CampaignSpec): Promise<CampaignRecord> {
		// Two new runs of one name started together both get here: the second gets the first's
		// campaign, and the claim that follows names the run holding it (not a UNIQUE failure).
		const now = Date.now();
		this.s.insertCampaign.run(spec.name, JSON.stringify(spec), now, now);
		return (await this.campaign(spec.name))!;
	}

	async claim(name: string, owner: RunOwner, staleMs: number): Promise<RunOwner | undefined> {
		return this.db
			.transaction((): RunOwner | undefined => {
				const current = campaignRecord(this.s.campaign.get(name) as CampaignDbRow | undefined)?.owner;
				if (current && current.token !== owner.token && ownerIsAlive(current, staleMs)) return current;
				this.s.setOwner.run(owner.pid, owner.host, owner.token, Date.now(), name);
				return undefined;
			})
			.immediate();
	}

	async heartbeat(name: string, owner: RunOwner): Promise<void> {
		this.s.heartbeat.run(Date.now(), name, owner.token);
	}

	async release(name: string, owner: RunOwner): Promise<void> {
		this.s.release.run(name, owner.token);
	}

	async setPhase(name: string, phase: CampaignPhase): Promise<void> {
		this.s.setPhase.run(phase, Date.now(), name);
	}

	async setPaused(name: string, paused: boolean): Promise<void> {
		this.s.setPaused.run(paused ? 1 : 0, Date.now(), name);
	}

	async importBatch(name: string, rows: ImportRow[], throughLine: number, input?: InputMark): Promise<void> {
		const insert = this.s.insertRow;
		this.db.transaction(() => {
			for (const r of rows) insert.run(name, r.line, r.to ?? null, r.text ?? null, r.segments, r.status, r.errorCode ?? null, r.message ?? null, r.timeZone ?? null);
			this.s.setImported.run(throughLine, Date.now(), name, throughLine);
			if (input) this.s.setInput.run(input.bytes, input.hash, input.size, input.mtimeMs ?? null, name, input.bytes);
		})();
	}

	async *campaignNumbers(name: string): AsyncIterable<string> {
		for (const n of this.s.numbers.iterate(name)) yield n as string;
	}

	async recoverSubmitting(name: string): Promise<number> {
		return this.db.transaction(() => {
			let n = 0;
			for (const c of this.s.submissions.all(name) as Submission[]) {
				const at = c.at ?? null;
				this.s.timeRecovered.run(at, name, c.first, c.last);
				this.s.indexRecovered.run(name, c.first, c.last);
				this.s.resolveRecovered.run(at, name, c.first, c.last);
				n += this.s.recover.run(at, name, c.first, c.last).changes;
				this.s.dropSubmission.run(name, c.chunk);
			}
			return n;
		})();
	}

	async requeueUncertain(name: string): Promise<number> {
		return this.db.transaction(() => {
			this.s.timeResolvedUncertain.run(name);
			this.s.indexResolvedUncertain.run(name);
			this.s.resolveUncertain.run(name);
			return this.s.requeue.run(name).changes;
		})();
	}

	async requeueUncertainWith(name: string, messages: readonly string[]): Promise<number> {
		return this.s.requeueWith.run(name, JSON.stringify(messages)).changes;
	}

	async deleteCampaign(name: string): Promise<void> {
		this.db.transaction(() => {
			for (const statement of this.s.deleteCampaign) statement.run(name);
			// A cron run's record, in this file once a worker has used it: left behind, a restart
			// would send the run again from its first row, and retention would take a new
			// campaign of the same name.
			if (this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'campaign_runs'`).get()) this.db.prepare('DELETE FROM campaign_runs WHERE run = ?').run(name);
			// Answer ids are reused once the last ones are gone: the MessageSid index must not
			// think itself past answers yet to come.
			this.s.clampIndexedThrough.run();
		})();
	}

	async peekPending(name: string, limit: number, afterLine = 0): Promise<PendingRow[]> {
		// Raw rows (arrays in SELECT order): one object per row instead of two, on the send path.
		// One read transaction: the list cannot gain a number between the two statements.
		const rows = this.db.transaction(() => (this.s.anySuppression.get() === 1 ? this.s.peek : this.s.peekUnsuppressed).all(name, afterLine, limit))() as [
			line: number,
			to: string,
			text: string,
			segments: number,
			timeZone: string | null,
			suppressed: number,
		][];
		return rows.map(([line, to, text, segments, timeZone, suppressed]) => ({ line, to, text, segments, timeZone: timeZone ?? undefined, suppressed: suppressed === 1 }));
	}

	async markSuppressed(name: string, lines: number[]): Promise<void> {
		this.db.transaction(() => {
			for (const line of lines) this.s.suppressRow.run(name, line);
		})();
	}

	async markSubmitting(name: string, lines: number[], chunk: number): Promise<void> {
		await (await this.markSubmittingCommitted(name, lines, chunk)).durable;
	}

	async markSubmittingCommitted(name: string, lines: number[], chunk: number): Promise<{ durable: Promise<void> }> {
		let first = Infinity;
		let last = -Infinity;
		for (const line of lines) {
			if (line < first) first = line;
			if (line > last) last = line;
		}
		// A `submitting` mark lost to a power cut would let the row be sent a second time, so
		// the request waits until the mark is on disk. Not by a FULL commit where the ledger
		// is in WAL mode: its fsync held the event loop, and with it every answer and request
		// of the run, for the disk's time (1 to 20 ms on a shared disk, more while it writes
		// back a large file, once per chunk). The WAL file is synced from the thread pool
		// instead (WalSync, as the daemon's stores do): as durable, while the loop goes on.
		const wal = this.walSync();
		if (!wal) this.db.pragma('synchronous = FULL');
		try {
			this.db
				.transaction(() => {
					// The submission stands for the pending rows of its range, so they must be exactly
					// these lines, none of them already on its way in another chunk.
					const other = this.s.overlapping.get(name, last, first) as { first: number; last: number } | undefined;
					if (other) {
						const taken = lines.find((line) => line >= other.first && line <= other.last);
						throw new Error(taken !== undefined ? `row ${taken} of ${name} is no longer pending` : `rows of ${name} between lines ${first} and ${last} are already being submitted`);
					}
					const pending = this.s.pendingIn.all(name, first, last) as number[];
					const wanted = new Set(lines);
					if (pending.length !== wanted.size || pending.length !== lines.length || !pending.every((line) => wanted.has(line))) {
						const isPending = new Set(pending);
						const missing = lines.find((line) => !isPending.has(line));
						throw new Error(missing !== undefined ? `row ${missing} of ${name} is no longer pending` : `rows of ${name} between lines ${first} and ${last} changed under this run`);
					}
					this.s.addSubmission.run(name, chunk, first, last, Date.now());
				})
				.immediate();
		} finally {
			if (!wal) this.db.pragma('synchronous = NORMAL');
		}
		return { durable: wal ? wal.sync() : Promise.resolve() };
	}

	private walSync(): WalSync | null {
		if (this.wal === undefined) this.wal = this.db.pragma('journal_mode', { simple: true }) === 'wal' ? new WalSync(this.path) : null;
		return this.wal;
	}

	async settle(name: string, chunk: number, rows: SettledRow[]): Promise<void> {
		this.db.transaction(() => {
			// When the request left: an uncertain row keeps it, for the report, should a receipt show it was sent.
			const attemptedAt = rows.some((r) => r.status === 'uncertain') ? ((this.s.submissionAt.get(name, chunk) as number | null | undefined) ?? null) : null;
			this.s.dropSubmission.run(name, chunk);
			const accepted: SidPairs = [];
			for (const r of rows) {
				if (r.status === 'accepted' && r.messageSid !== undefined) accepted.push([r.line, r.messageSid]);
				else {
					this.s.settleRow.run(r.status, r.errorCode ?? null, r.message ?? null, r.status === 'uncertain' ? attemptedAt : null, name, r.line);
					// Refused by the provider, it was never sent: a receipt for it was not the provider's.
					if (r.status === 'rejected') this.s.dropReceipt.run(name, r.line);
				}
			}
			if (accepted.length === 0) return;
			accepted.sort((x, y) => x[0] - y[0]);
			const first = accepted[0][0];
			const last = accepted[accepted.length - 1][0];
			if (accepted.length === rows.length) {
				// The whole chunk accepted (nearly every answer): one statement. The chunk is every
				// pending row of its range, as markSubmitting made sure.
				const changed = this.s.acceptRange.run(name, first, last).changes;
				if (changed !== accepted.length) throw new Error(`the answer for lines ${first} to ${last} of ${name} accepts ${accepted.length} rows, but ${changed} were waiting for it`);
			} else {
				for (const [line] of accepted) this.s.acceptLine.run(name, line);
			}
			const sids = encodeSids(accepted);
			this.s.addAnswer.run(name, first, last, sids, Date.now());
			this.s.dropForeignReceipts.run({ campaign: name, first, last, sids });
		})();
	}

	async cancelPending(name: string): Promise<number> {
		return this.s.cancel.run(name).changes;
	}

	async counts(name: string): Promise<CampaignCounts> {
		const rows = Object.fromEntries(ROW_STATUSES.map((s) => [s, 0])) as Record<RowStatus, number>;
		let total = 0;
		let acceptedSegments = 0;
		let sendableSegments = 0;
		for (const r of this.s.counts.all(name) as { status: RowStatus; n: number; segs: number | null }[]) {
			rows[r.status] = r.n;
			total += r.n;
			if (r.status === 'accepted') acceptedSegments = r.segs ?? 0;
			if (r.status === 'accepted' || r.status === 'pending' || r.status === 'uncertain') sendableSegments += r.segs ?? 0;
		}
		// Pending rows of a chunk on its way are submitting.
		const submitting = this.s.submittingCount.get(name) as { n: number };
		rows.submitting += submitting.n;
		rows.pending -= submitting.n;
		return { rows, total, acceptedSegments, sendableSegments };
	}

	async *rows(name: string, statuses?: RowStatus[], limit = Number.MAX_SAFE_INTEGER): AsyncIterable<LedgerRow> {
		let n = 0;
		const submissions = this.s.submissions.all(name) as Submission[];
		const submitting = (line: number) => submissions.some((c) => line >= c.first && line <= c.last);
		// `submitting` is stored as pending inside a submission's range.
		const stored = statuses?.includes('submitting') && !statuses.includes('pending') ? [...statuses, 'pending' as const] : statuses;
		const sids = new AnswerSidReader((from, to, line) => this.s.answersStarting.all(name, from, to, line) as StoredAnswer[]);
		// Read a page at a time, with no cursor left open, so callers may write between rows.
		for (let after = 0; ; ) {
			const page = (stored ? this.rowsWith(stored).all(name, after, ...stored, ROWS_PAGE) : this.s.rowsPage.all(name, after, ROWS_PAGE)) as RecipientDbRow[];
			for (const r of page) {
				const status = r.status === 'pending' && submissions.length > 0 && submitting(r.line) ? 'submitting' : r.status;
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
					// Rows of schema 2 and before hold their MessageSid; later ones are in answers.
					messageSid: r.message_sid ?? (status === 'accepted' ? sids.sid(r.line) : undefined),
				};
			}
			if (page.length < ROWS_PAGE) return;
			after = page[page.length - 1].line;
		}
	}

	private readonly rowsByStatuses = new Map<number, Database.Statement>();

	/** A page of rows of some statuses (the first errors, the uncertain), in line order. */
	private rowsWith(statuses: RowStatus[]): Database.Statement {
		let statement = this.rowsByStatuses.get(statuses.length);
		if (!statement) {
			statement = this.db.prepare(
				`SELECT line, to_number, text, segments, status, error_code, message, message_sid FROM recipients
				 WHERE campaign = ? AND line > ? AND status IN (${statuses.map(() => '?').join(', ')}) ORDER BY line LIMIT ?`,
			);
			this.rowsByStatuses.set(statuses.length, statement);
		}
		return statement;
	}

	async isSuppressed(number: string): Promise<boolean> {
		return this.s.isSuppressed.get(number, forgottenKey(number)) !== undefined;
	}

	async *suppressions(): AsyncIterable<string> {
		for (const n of this.s.suppressions.iterate()) yield n as string;
	}

	async addSuppression(number: string, reason: string): Promise<void> {
		const now = Date.now();
		this.db.transaction(() => {
			this.s.addSuppression.run(number, reason, now);
			this.s.consentEvent.run(number, now, 'opt-out', reason);
		})();
	}

	async removeSuppression(number: string): Promise<boolean> {
		const now = Date.now();
		return this.db.transaction(() => {
			const removed = this.s.removeSuppression.run(number).changes > 0;
			this.s.consentEvent.run(number, now, 'opt-in', removed ? 'replied to opt in' : 'replied to opt in (was not suppressed)');
			return removed;
		})();
	}

	async contactHistory(number: string): Promise<ContactHistory> {
		return sqliteContactHistory(this.db, number);
	}

	async forgetContact(number: string): Promise<ForgetResult> {
		return sqliteForgetContact(this.db, number);
	}

	async recordDelivery(receipt: DeliveryRecord): Promise<DeliveredRow | undefined> {
		const sid = receipt.messageSid;
		const named = receipt.campaign !== undefined && receipt.line !== undefined ? { campaign: receipt.campaign, line: receipt.line } : undefined;
		// The row that sent this MessageSid; else the row its ExternalId names, only while that
		// row's MessageSid is not known (uncertain, or on its way): an ExternalId is anyone's to
		// write, a MessageSid is the provider's. The MessageSid index, brought up to date from the
		// answers as receipts need it, is the cheaper proof: finding the MessageSid in the row's
		// answer (json_each) made a receipt half as dear again.
		const row = this.rowOfSid(sid) ?? (named && this.s.awaitsSid.get(named.campaign, named.line) !== undefined ? named : undefined);
		if (!row) return undefined;
		const { campaign, line } = row;
		return this.db.transaction((): DeliveredRow => {
			// No answer for an uncertain row: it was sent when its request left, as this receipt shows.
			const sentAt = (this.s.answerAt.get(campaign, line, line) as number | undefined) ?? ((this.s.uncertainAttemptedAt.get(campaign, line) as number | null | undefined) ?? null);
			this.s.recordDelivery.run(campaign, line, sid, receipt.status, receipt.errorCode || null, receipt.at, receipt.receivedAt ?? null, sentAt);
			const resolved = this.s.resolveUncertainRow.run(sid, campaign, line).changes > 0;
			if (resolved) this.s.indexSid.run(sid, campaign, line);
			return { campaign, line, resolved };
		})();
	}

	/** The row that sent this MessageSid, through the MessageSid index (brought up to date first when it lacks it). */
	private rowOfSid(sid: string): { campaign: string; line: number } | undefined {
		const row = this.s.rowBySid.get(sid) as { campaign: string; line: number } | undefined;
		if (row || this.indexAnswers() === 0) return row;
		return this.s.rowBySid.get(sid) as { campaign: string; line: number } | undefined;
	}

	async sentTo(messageSid: string): Promise<string | undefined> {
		const row = this.rowOfSid(messageSid);
		return row && ((this.s.rowNumber.get(row.campaign, row.line) as string | null | undefined) ?? undefined);
	}

	/**
	 * Copies the MessageSids of answers stored since the last copy into message_sids, sorted,
	 * so the random MessageSids fill the index page by page. Returns how many were added.
	 */
	private indexAnswers(): number {
		if ((this.s.answersAfter.all(Number(this.s.indexedThrough.get() ?? 0), 1) as unknown[]).length === 0) return 0;
		let added = 0;
		// A page of answers per transaction: a campaign writing to the same file waits for
		// one page at a time, not for the whole backlog of a million-row ledger.
		for (let more = true; more; ) {
			more = this.db
				.transaction(() => {
					const through = Number(this.s.indexedThrough.get() ?? 0);
					const answers = this.s.answersAfter.all(through, INDEX_PAGE) as { id: number; campaign: string; sids: string }[];
					if (answers.length === 0) return false;
					const entries: [sid: string, campaign: string, line: number][] = [];
					for (const a of answers) for (const [line, sid] of decodeSids(a.sids)) entries.push([sid, a.campaign, line]);
					entries.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
					for (const [sid, campaign, line] of entries) added += this.s.indexSid.run(sid, campaign, line).changes;
					this.s.setIndexedThrough.run(String(answers[answers.length - 1].id));
					return answers.length === INDEX_PAGE;
				})
				.immediate();
		}
		return added;
	}

	async delivery(name: string, line: number): Promise<DeliveryRecord | undefined> {
		const r = this.s.delivery.get(name, line) as { message_sid: string; status: DeliveryRecord['status']; error_code: string | null; at: number; received_at: number | null } | undefined;
		return r && { messageSid: r.message_sid, campaign: name, line, status: r.status, errorCode: r.error_code ?? undefined, at: r.at, receivedAt: r.received_at ?? undefined };
	}

	async recordReply(reply: ReplyRecord): Promise<boolean> {
		return this.s.recordReply.run({ campaign: reply.campaign, line: reply.line, messageSid: reply.messageSid, at: reply.at, optOut: reply.optOut ? 1 : 0 }).changes > 0;
	}

	async deliveryCounts(name: string): Promise<DeliveryCounts> {
		// Keyed by the provider's ErrorCode: no key ("__proto__", "constructor") may reach a prototype.
		const out: DeliveryCounts = { delivered: 0, failed: 0, failedByCode: Object.create(null) as Record<string, number>, awaitingReceipt: 0, replied: 0, optedOut: 0 };
		for (const r of this.s.receiptsByCode.all(name) as { status: DeliveryRecord['status']; code: string; n: number }[]) {
			if (r.status === 'Delivered') out.delivered += r.n;
			else {
				out.failed += r.n;
				out.failedByCode[r.code] = (out.failedByCode[r.code] ?? 0) + r.n;
			}
		}
		out.awaitingReceipt = (this.s.acceptedCount.get(name) as number) - (this.s.acceptedWithReceipt.get(name) as number);
		const replies = this.s.replyCounts.get(name) as { replied: number; opted_out: number };
		out.replied = replies.replied;
		out.optedOut = replies.opted_out;
		return out;
	}

	async activitySpan(name: string): Promise<{ from: number; to: number } | undefined> {
		const sent = this.s.answersSpan.get(name) as { first: number | null; last: number | null };
		const attempted = this.s.attemptedSpan.get(name) as { first: number | null; last: number | null };
		const received = this.s.deliveriesSpan.get(name) as { first: number | null; last: number | null };
		const seconds = (ms: number | null) => (ms === null ? undefined : Math.floor(ms / 1000));
		const starts = [seconds(sent.first), seconds(attempted.first), received.first ?? undefined].filter((v) => v !== undefined);
		const ends = [seconds(sent.last), seconds(attempted.last), received.last ?? undefined].filter((v) => v !== undefined);
		return starts.length === 0 ? undefined : { from: Math.min(...starts), to: Math.max(...ends) };
	}

	async reportFigures(name: string, bucketSeconds: number): Promise<ReportFigures> {
		return this.db.transaction(() => ({
			failuresByPrefix: this.s.failuresByPrefix.all(name) as ReportFigures['failuresByPrefix'],
			sends: addBuckets(this.s.sendBuckets.all(bucketSeconds, bucketSeconds, name) as ReportFigures['sends'], this.s.attemptBuckets.all(bucketSeconds, bucketSeconds, name) as ReportFigures['sends']),
			deliveries: this.s.receiptBuckets.all(bucketSeconds, bucketSeconds, name) as ReportFigures['deliveries'],
			receiptTenths: this.s.receiptTenths.all(name) as ReportFigures['receiptTenths'],
			sentByReceipt: this.s.acceptedByReceipt.get(name) as number,
		}))();
	}

	async campaignNames(): Promise<string[]> {
		return this.s.campaignNames.all() as string[];
	}

	/**
	 * The open connection, for the daemon's tables in the same file. One connection, one
	 * page cache: SQLite drops a connection's whole cache when another one has written, so
	 * the daemon and the ledger, taking turns on two connections, each read back from the
	 * file what the other had just made it forget.
	 */
	connection(): Database.Database {
		return this.db;
	}

	async close(): Promise<void> {
		this.wal?.close();
		this.wal = undefined;
		if (this.db.open) this.db.close();
	}
}

/** Two lists of send buckets as one, in order, counts of the same bucket added. */
function addBuckets(a: ReportFigures['sends'], b: ReportFigures['sends']): ReportFigures['sends'] {
	if (b.length === 0) return a;
	const byStart = new Map(a.map((x) => [x.at, x.count]));
	for (const x of b) byStart.set(x.at, (byStart.get(x.at) ?? 0) + x.count);
	return [...byStart].sort((x, y) => x[0] - y[0]).map(([at, count]) => ({ at, count }));
}
