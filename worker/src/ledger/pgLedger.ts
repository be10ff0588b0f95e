import type { Pool } from 'pg';
import type { CampaignSpec } from '../settings/campaignSpec';
import { transaction } from '../storage/postgres/pgDatabase';
import { WORKER_ID } from '../storage/workerId';
import { ownerIsAlive } from './ownerIsAlive';
import { forgottenKey, type ContactHistory, type ForgetResult } from './contact';
import { pgContactHistory, pgForgetContact } from './pgContact';
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
import type { ClaimedChunk, SharedLedger } from './sharedLedger';

/** Rows read per query by `rows()` and `campaignNumbers()`, which hold no cursor open. */
const PAGE = 5_000;

export const ANSWER_LOST = 'the request may have reached the provider, but its answer was lost';

/**
 * The ledger in Postgres, for workers on several machines. Every commit but a settle's is
 * durable when it returns (Postgres's default), so a `submitting` mark is on disk before its
 * request leaves. Several statements that must stand together share one transaction.
 */
export class PgLedger implements Ledger, SharedLedger {
	constructor(private readonly pool: Pool) {}

	async campaign(name: string): Promise<CampaignRecord | undefined> {
		return campaignRecord((await this.pool.query<CampaignDbRow>('SELECT * FROM campaigns WHERE name = $1', [name])).rows[0]);
	}

	async createCampaign(spec: CampaignSpec): Promise<CampaignRecord> {
		const now = Date.now();
		await this.pool.query(`INSERT INTO campaigns (name, spec, phase, created_at, updated_at) VALUES ($1, $2, 'importing', $3, $3) ON CONFLICT (name) DO NOTHING`, [spec.name, JSON.stringify(spec), now]);
		return (await this.campaign(spec.name))!;
	}

	async claim(name: string, owner: RunOwner, staleMs: number): Promise<RunOwner | undefined> {
		return transaction(this.pool, async (db) => {
			const current = campaignRecord((await db.query<CampaignDbRow>('SELECT * FROM campaigns WHERE name = $1 FOR UPDATE', [name])).rows[0])?.owner;
			if (current && current.token !== owner.token && ownerIsAlive(current, staleMs)) return current;
			await db.query('UPDATE campaigns SET owner_pid = $1, owner_host = $2, owner_token = $3, heartbeat_at = $4 WHERE name = $5', [owner.pid, owner.host, owner.token, Date.now(), name]);
			return undefined;
		});
	}

	async heartbeat(name: string, owner: RunOwner): Promise<void> {
		await this.pool.query('UPDATE campaigns SET heartbeat_at = $1 WHERE name = $2 AND owner_token = $3', [Date.now(), name, owner.token]);
	}

	async release(name: string, owner: RunOwner): Promise<void> {
		await this.pool.query('UPDATE campaigns SET owner_pid = NULL, owner_host = NULL, owner_token = NULL, heartbeat_at = NULL WHERE name = $1 AND owner_token = $2', [name, owner.token]);
	}

	async setPhase(name: string, phase: CampaignPhase): Promise<void> {
		await this.pool.query('UPDATE campaigns SET phase = $1, updated_at = $2 WHERE name = $3', [phase, Date.now(), name]);
	}

	async setPaused(name: string, paused: boolean): Promise<void> {
		await this.pool.query('UPDATE campaigns SET paused = $1, updated_at = $2 WHERE name = $3', [paused, Date.now(), name]);
	}

	async deleteCampaign(name: string): Promise<void> {
		await transaction(this.pool, async (db) => {
			for (const table of ['recipients', 'submissions', 'deliveries', 'replies', 'pacing']) await db.query(`DELETE FROM ${table} WHERE campaign = $1`, [name]);
			await db.query('DELETE FROM campaigns WHERE name = $1', [name]);
			// A cron run's record: left behind, a restart would send the run again from its first
			// row, and retention would take a new campaign of the same name.
			await db.query('DELETE FROM campaign_runs WHERE run = $1', [name]);
		});
	}

	async importBatch(name: string, rows: ImportRow[], throughLine: number, input?: InputMark): Promise<void> {
		await transaction(this.pool, async (db) => {
			if (rows.length > 0) {
				await db.query(
					`INSERT INTO recipients (campaign, line, to_number, text, segments, status, error_code, message, time_zone)
					 SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[])
					 ON CONFLICT (campaign, line) DO NOTHING`,
					[
						name,
						rows.map((r) => r.line),
						rows.map((r) => r.to ?? null),
						rows.map((r) => r.text ?? null),
						rows.map((r) => r.segments),
						rows.map((r) => r.status),
						rows.map((r) => r.errorCode ?? null),
						rows.map((r) => r.message ?? null),
						rows.map((r) => r.timeZone ?? null),
					],
				);
			}
			await db.query('UPDATE campaigns SET imported_through = $1, updated_at = $2 WHERE name = $3 AND imported_through < $1', [throughLine, Date.now(), name]);
			// The mark covering the most bytes is kept: a resumed import reads the file again from its start.
			if (input) await db.query('UPDATE campaigns SET input_bytes = $1, input_hash = $2, input_size = $3, input_mtime = $4 WHERE name = $5 AND (input_bytes IS NULL OR input_bytes <= $1)', [input.bytes, input.hash, input.size, input.mtimeMs ?? null, name]);
		});
	}

	async *campaignNumbers(name: string): AsyncIterable<string> {
		for (let after = 0; ; ) {
			const page = await this.pool.query<{ line: number; to_number: string }>(
				`SELECT line, to_number FROM recipients WHERE campaign = $1 AND line > $2 AND status NOT IN ('invalid', 'duplicate', 'suppressed') AND to_number IS NOT NULL ORDER BY line LIMIT $3`,
				[name, after, PAGE],
			);
			for (const r of page.rows) yield r.to_number;
			if (page.rows.length < PAGE) return;
			after = page.rows[page.rows.length - 1].line;
		}
	}

	async recoverSubmitting(name: string): Promise<number> {
		return transaction(this.pool, async (db) => {
			// A receipt proves its message went out, whatever became of the answer: sent when its
			// request left (its submission's time), the time the report gives it.
			await db.query(
				`UPDATE recipients r SET status = 'accepted', chunk = NULL, error_code = NULL, message = NULL, message_sid = d.message_sid,
				 attempted_at = (SELECT s.created_at FROM submissions s WHERE s.campaign = r.campaign AND s.chunk = r.chunk),
				 sent_at = (SELECT s.created_at FROM submissions s WHERE s.campaign = r.campaign AND s.chunk = r.chunk)
				 FROM deliveries d WHERE r.campaign = $1 AND r.status = 'submitting' AND d.campaign = r.campaign AND d.line = r.line`,
				[name],
			);
			const n = await db.query(
				`UPDATE recipients r SET status = 'uncertain', chunk = NULL, error_code = NULL, message = $2,
				 attempted_at = (SELECT s.created_at FROM submissions s WHERE s.campaign = r.campaign AND s.chunk = r.chunk)
				 WHERE r.campaign = $1 AND r.status = 'submitting'`,
				[name, ANSWER_LOST],
			);
			await db.query('DELETE FROM submissions WHERE campaign = $1', [name]);
			return n.rowCount ?? 0;
		});
	}

	async requeueUncertain(name: string): Promise<number> {
		return transaction(this.pool, async (db) => {
			await db.query(
				`UPDATE recipients r SET status = 'accepted', error_code = NULL, message = NULL, message_sid = d.message_sid, sent_at = r.attempted_at
				 FROM deliveries d WHERE r.campaign = $1 AND r.status = 'uncertain' AND d.campaign = r.campaign AND d.line = r.line`,
				[name],
			);
			// Sent again, they will be timed by their answer.
			return (await db.query(`UPDATE recipients SET status = 'pending', message = NULL, attempted_at = NULL WHERE campaign = $1 AND status = 'uncertain'`, [name])).rowCount ?? 0;
		});
	}

	async requeueUncertainWith(name: string, messages: readonly string[]): Promise<number> {
		// left(), not LIKE: the stored messages hold '_', which LIKE reads as a wildcard.
		const r = await this.pool.query(
			`UPDATE recipients SET status = 'pending', message = NULL, attempted_at = NULL WHERE campaign = $1 AND status = 'uncertain' AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS m WHERE left(message, length(m)) = m)`,
			[name, messages],
		);
		return r.rowCount ?? 0;
	}

	async peekPending(name: string, limit: number, afterLine = 0): Promise<PendingRow[]> {
		const r = await this.pool.query<{ line: number; to_number: string; text: string; segments: number; time_zone: string | null; suppressed: boolean }>(
			`SELECT r.line, r.to_number, r.text, r.segments, r.time_zone, EXISTS (SELECT 1 FROM suppressions s WHERE s.number = r.to_number) AS suppressed
			 FROM recipients r WHERE r.campaign = $1 AND r.line > $2 AND r.status = 'pending' ORDER BY r.line LIMIT $3`,
			[name, afterLine, limit],
		);
		return r.rows.map((x) => ({ line: x.line, to: x.to_number, text: x.text, segments: x.segments, timeZone: x.time_zone ?? undefined, suppressed: x.suppressed }));
	}

	async markSuppressed(name: string, lines: number[]): Promise<void> {
		await this.pool.query(
			`UPDATE recipients SET status = 'suppressed', error_code = 'SUPPRESSED', message = 'the number is on the suppression list' WHERE campaign = $1 AND line = ANY($2::int[]) AND status = 'pending'`,
			[name, lines],
		);
	}

	async markSubmitting(name: string, lines: number[], chunk: number): Promise<void> {
		await transaction(this.pool, async (db) => {
			const marked = await db.query<{ line: number }>(`UPDATE recipients SET status = 'submitting', chunk = $3 WHERE campaign = $1 AND line = ANY($2::int[]) AND status = 'pending' RETURNING line`, [
				name,
				lines,
				chunk,
			]);
			if (marked.rows.length !== new Set(lines).size || marked.rows.length !== lines.length) {
				const taken = new Set(marked.rows.map((r) => r.line));
				const missing = lines.find((line) => !taken.has(line));
				// Thrown inside the transaction: nothing of this chunk stays marked.
				throw new Error(missing !== undefined ? `row ${missing} of ${name} is no longer pending` : `rows of ${name} changed under this run`);
			}
			await db.query('INSERT INTO submissions (campaign, chunk, created_at, worker) VALUES ($1, $2, $3, $4)', [name, chunk, Date.now(), WORKER_ID]);
		});
	}

	async claimChunk(name: string, limit: number): Promise<ClaimedChunk> {
		return transaction(this.pool, async (db) => {
			const chunk = (await db.query<{ n: number }>(`SELECT nextval('chunk_numbers') AS n`)).rows[0].n;
			// SKIP LOCKED: rows another worker is taking this moment are left to it, not waited for.
			const taken = await db.query<{ line: number; to_number: string; text: string; segments: number; time_zone: string | null; status: string }>(
				// MATERIALIZED: a subquery in FROM may be run again per row, each time past the LIMIT.
				`WITH p AS MATERIALIZED (
					SELECT q.line, EXISTS (SELECT 1 FROM suppressions s WHERE s.number = q.to_number) AS suppressed
					FROM recipients q WHERE q.campaign = $1 AND q.status = 'pending' ORDER BY q.line LIMIT $2 FOR UPDATE OF q SKIP LOCKED
				 )
				 UPDATE recipients r SET
					status = CASE WHEN p.suppressed THEN 'suppressed' ELSE 'submitting' END,
					chunk = CASE WHEN p.suppressed THEN NULL ELSE $3::bigint END,
					error_code = CASE WHEN p.suppressed THEN 'SUPPRESSED' ELSE r.error_code END,
					message = CASE WHEN p.suppressed THEN 'the number is on the suppression list' ELSE r.message END
				 FROM p
				 WHERE r.campaign = $1 AND r.line = p.line
				 RETURNING r.line, r.to_number, r.text, r.segments, r.time_zone, r.status`,
				[name, limit, chunk],
			);
			const rows = taken.rows
				.filter((r) => r.status === 'submitting')
				.sort((a, b) => a.line - b.line)
				.map((r) => ({ line: r.line, to: r.to_number, text: r.text, segments: r.segments, timeZone: r.time_zone ?? undefined, suppressed: false }));
			if (rows.length > 0) await db.query('INSERT INTO submissions (campaign, chunk, created_at, worker) VALUES ($1, $2, $3, $4)', [name, chunk, Date.now(), WORKER_ID]);
			return { chunk, rows, suppressed: taken.rows.length - rows.length };
		});
	}

	async pace(name: string, count: number, perSecond: number): Promise<number> {
		const cost = (count * 1000) / perSecond;
		// Postgres's clock, not each machine's: the workers' clocks need not agree.
		const r = await this.pool.query<{ wait: number }>(
			`WITH now AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms)
			 INSERT INTO pacing AS p (campaign, next_at) SELECT $1, ms + $2 FROM now
			 ON CONFLICT (campaign) DO UPDATE SET next_at = GREATEST(p.next_at, (SELECT ms FROM now)) + $2
			 RETURNING p.next_at - $2 - (SELECT ms FROM now) AS wait`,
			[name, cost],
		);
		return Math.max(0, r.rows[0].wait);
	}

	async submissionsInFlight(name: string): Promise<number> {
		return (await this.pool.query<{ n: number }>('SELECT COUNT(*) AS n FROM submissions WHERE campaign = $1', [name])).rows[0].n;
	}

	async settle(name: string, chunk: number, rows: SettledRow[]): Promise<void> {
		await transaction(this.pool, async (db) => {
			// Not waited onto disk, as SQLite's settle is not (its WAL commits at synchronous =
			// NORMAL, synced later; only the submitting mark waits for the disk). A settle lost to
			// a crash leaves its rows submitting and its submission in place, which recovery turns
			// uncertain: the same as a crash while the request was out, and nothing is sent again.
			// The next ordinary commit (a mark, a phase) flushes it with its own WAL anyway.
			await db.query('SET LOCAL synchronous_commit = off');
			// When the request left: an uncertain row keeps it, for the report, should a receipt show it was sent.
			const attempted = (await db.query<{ at: number }>('DELETE FROM submissions WHERE campaign = $1 AND chunk = $2 RETURNING created_at AS at', [name, chunk])).rows[0]?.at ?? null;
			// In the same statement, receipts stored while the request was on its way that the
			// answer disowns (another MessageSid, or the message refused): anyone could have
			// written their ExternalId (recordDelivery).
			await db.query(
				`WITH v AS (SELECT * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[]) AS v(line, status, sid, code, msg)),
				 foreign_receipts AS (
					DELETE FROM deliveries d USING v
					WHERE d.campaign = $1 AND d.line = v.line AND ((v.status = 'accepted' AND d.message_sid IS DISTINCT FROM v.sid) OR v.status = 'rejected')
				 )
				 UPDATE recipients r SET status = v.status, chunk = NULL, message_sid = v.sid, error_code = v.code, message = v.msg,
				 sent_at = CASE WHEN v.status = 'accepted' THEN $7::bigint END,
				 attempted_at = CASE WHEN v.status = 'uncertain' THEN $8::bigint END
				 FROM v
				 WHERE r.campaign = $1 AND r.line = v.line`,
				[
					name,
					rows.map((r) => r.line),
					rows.map((r) => r.status),
					rows.map((r) => (r.status === 'accepted' ? (r.messageSid ?? null) : null)),
					rows.map((r) => (r.status === 'accepted' ? null : (r.errorCode ?? null))),
					rows.map((r) => (r.status === 'accepted' ? null : (r.message ?? null))),
					Date.now(),
					attempted,
				],
			);
		});
	}

	async cancelPending(name: string): Promise<number> {
		return (await this.pool.query(`UPDATE recipients SET status = 'cancelled', message = 'the campaign was cancelled before this row was sent' WHERE campaign = $1 AND status = 'pending'`, [name])).rowCount ?? 0;
	}

	async counts(name: string): Promise<CampaignCounts> {
		const rows = Object.fromEntries(ROW_STATUSES.map((s) => [s, 0])) as Record<RowStatus, number>;
		let total = 0;
		let acceptedSegments = 0;
		let sendableSegments = 0;
		const r = await this.pool.query<{ status: RowStatus; n: number; segs: number | null }>('SELECT status, COUNT(*) AS n, SUM(segments) AS segs FROM recipients WHERE campaign = $1 GROUP BY status', [name]);
		for (const c of r.rows) {
			rows[c.status] = c.n;
			total += c.n;
			if (c.status === 'accepted') acceptedSegments = c.segs ?? 0;
			if (c.status === 'accepted' || c.status === 'pending' || c.status === 'uncertain') sendableSegments += c.segs ?? 0;
		}
		return { rows, total, acceptedSegments, sendableSegments };
	}

	async *rows(name: string, statuses?: RowStatus[], limit = Number.MAX_SAFE_INTEGER): AsyncIterable<LedgerRow> {
		let n = 0;
		for (let after = 0; ; ) {
			const page = await this.pool.query<RecipientDbRow>(
				`SELECT line, to_number, text, segments, status, error_code, message, message_sid FROM recipients
				 WHERE campaign = $1 AND line > $2 AND ($3::text[] IS NULL OR status = ANY($3::text[])) ORDER BY line LIMIT $4`,
				[name, after, statuses ?? null, Math.min(PAGE, limit - n)],
			);
			for (const r of page.rows) {
				if (n++ >= limit) return;
				yield {
					line: r.line,
					to: r.to_number ?? undefined,
					text: r.text ?? undefined,
					segments: r.segments,
					status: r.status,
					errorCode: r.error_code ?? undefined,
					message: r.message ?? undefined,
					messageSid: r.message_sid ?? undefined,
				};
			}
			if (page.rows.length < PAGE || n >= limit) return;
			after = page.rows[page.rows.length - 1].line;
		}
	}

	async isSuppressed(number: string): Promise<boolean> {
		// A forgotten number is suppressed under its hash.
		return (await this.pool.query('SELECT 1 FROM suppressions WHERE number IN ($1, $2)', [number, forgottenKey(number)])).rows.length > 0;
	}

	async *suppressions(): AsyncIterable<string> {
		for (let after = ''; ; ) {
			const page = await this.pool.query<{ number: string }>('SELECT number FROM suppressions WHERE number > $1 ORDER BY number LIMIT $2', [after, PAGE]);
			for (const r of page.rows) yield r.number;
			if (page.rows.length < PAGE) return;
			after = page.rows[page.rows.length - 1].number;
		}
	}

	async addSuppression(number: string, reason: string): Promise<void> {
		const now = Date.now();
		await transaction(this.pool, async (db) => {
			await db.query('INSERT INTO suppressions (number, reason, created_at) VALUES ($1, $2, $3) ON CONFLICT (number) DO UPDATE SET reason = excluded.reason', [number, reason, now]);
			await db.query(`INSERT INTO consent_events (number, at, kind, reason) VALUES ($1, $2, 'opt-out', $3)`, [number, now, reason]);
		});
	}

	async removeSuppression(number: string): Promise<boolean> {
		const now = Date.now();
		return transaction(this.pool, async (db) => {
			const removed = ((await db.query('DELETE FROM suppressions WHERE number = $1', [number])).rowCount ?? 0) > 0;
			await db.query(`INSERT INTO consent_events (number, at, kind, reason) VALUES ($1, $2, 'opt-in', $3)`, [number, now, removed ? 'replied to opt in' : 'replied to opt in (was not suppressed)']);
			return removed;
		});
	}

	async contactHistory(number: string): Promise<ContactHistory> {
		return pgContactHistory(this.pool, number);
	}

	async forgetContact(number: string): Promise<ForgetResult> {
		return pgForgetContact(this.pool, number);
	}

	async recordDelivery(receipt: DeliveryRecord): Promise<DeliveredRow | undefined> {
		let row: { campaign: string; line: number } | undefined;
		// The row its ExternalId names only when the message is that row's, or the row's
		// MessageSid is not known yet (uncertain, or submitting: the receipt came before the
		// answer): an ExternalId is anyone's to write, a MessageSid is the provider's.
		if (receipt.campaign !== undefined && receipt.line !== undefined) {
			row = (
				await this.pool.query<{ campaign: string; line: number }>(
					`SELECT campaign, line FROM recipients WHERE campaign = $1 AND line = $2 AND (message_sid = $3 OR status IN ('uncertain', 'submitting'))`,
					[receipt.campaign, receipt.line, receipt.messageSid],
				)
			).rows[0];
		}
		row ??= (await this.pool.query<{ campaign: string; line: number }>('SELECT campaign, line FROM recipients WHERE message_sid = $1 LIMIT 1', [receipt.messageSid])).rows[0];
		if (!row) return undefined;
		const { campaign, line } = row;
		return transaction(this.pool, async (db) => {
			await db.query(
				`INSERT INTO deliveries (campaign, line, message_sid, status, error_code, at, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
				 ON CONFLICT (campaign, line) DO UPDATE SET message_sid = excluded.message_sid, status = excluded.status, error_code = excluded.error_code, at = excluded.at, received_at = excluded.received_at`,
				[campaign, line, receipt.messageSid, receipt.status, receipt.errorCode || null, receipt.at, receipt.receivedAt ?? null],
			);
			// No answer for an uncertain row: it was sent when its request left, as this receipt shows.
			const resolved = await db.query(`UPDATE recipients SET status = 'accepted', message_sid = $1, error_code = NULL, message = NULL, sent_at = attempted_at WHERE campaign = $2 AND line = $3 AND status = 'uncertain'`, [
				receipt.messageSid,
				campaign,
				line,
			]);
			return { campaign, line, resolved: (resolved.rowCount ?? 0) > 0 };
		});
	}

	async sentTo(messageSid: string): Promise<string | undefined> {
		return (await this.pool.query<{ to_number: string | null }>('SELECT to_number FROM recipients WHERE message_sid = $1 LIMIT 1', [messageSid])).rows[0]?.to_number ?? undefined;
	}

	async delivery(name: string, line: number): Promise<DeliveryRecord | undefined> {
		const r = (
			await this.pool.query<{ message_sid: string; status: DeliveryRecord['status']; error_code: string | null; at: number; received_at: number | null }>(
				'SELECT message_sid, status, error_code, at, received_at FROM deliveries WHERE campaign = $1 AND line = $2',
				[name, line],
			)
		).rows[0];
		return r && { messageSid: r.message_sid, campaign: name, line, status: r.status, errorCode: r.error_code ?? undefined, at: r.at, receivedAt: r.received_at ?? undefined };
	}

	async recordReply(reply: ReplyRecord): Promise<boolean> {
		// Only against a row of ours: an ExternalId of that shape may come from anyone's message.
		const r = await this.pool.query(
			`INSERT INTO replies (campaign, line, message_sid, at, opt_out)
			 SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM recipients WHERE campaign = $1 AND line = $2) ON CONFLICT DO NOTHING`,
			[reply.campaign, reply.line, reply.messageSid, reply.at, reply.optOut],
		);
		return (r.rowCount ?? 0) > 0;
	}

	async deliveryCounts(name: string): Promise<DeliveryCounts> {
		// Keyed by the provider's ErrorCode: no key ("__proto__", "constructor") may reach a prototype.
		const out: DeliveryCounts = { delivered: 0, failed: 0, failedByCode: Object.create(null) as Record<string, number>, awaitingReceipt: 0, replied: 0, optedOut: 0 };
		const codes = await this.pool.query<{ status: DeliveryRecord['status']; code: string; n: number }>(`SELECT status, COALESCE(error_code, '') AS code, COUNT(*) AS n FROM deliveries WHERE campaign = $1 GROUP BY 1, 2`, [name]);
		for (const r of codes.rows) {
			if (r.status === 'Delivered') out.delivered += r.n;
			else {
				out.failed += r.n;
				out.failedByCode[r.code] = (out.failedByCode[r.code] ?? 0) + r.n;
			}
		}
		const awaiting = await this.pool.query<{ n: number }>(
			`SELECT COUNT(*) AS n FROM recipients r WHERE r.campaign = $1 AND r.status = 'accepted' AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.campaign = r.campaign AND d.line = r.line)`,
			[name],
		);
		out.awaitingReceipt = awaiting.rows[0].n;
		const replies = await this.pool.query<{ replied: number; opted_out: number }>(
			`SELECT COUNT(DISTINCT line) AS replied, COUNT(DISTINCT CASE WHEN opt_out THEN line END) AS opted_out FROM replies WHERE campaign = $1`,
			[name],
		);
		out.replied = replies.rows[0].replied;
		out.optedOut = replies.rows[0].opted_out;
		return out;
	}

	async activitySpan(name: string): Promise<{ from: number; to: number } | undefined> {
		const r = await this.pool.query<{ first: number | null; last: number | null }>(
			`SELECT MIN(t) AS first, MAX(t) AS last FROM (
				SELECT MIN(sent_at) / 1000 AS t FROM recipients WHERE campaign = $1 UNION ALL SELECT MAX(sent_at) / 1000 FROM recipients WHERE campaign = $1
				UNION ALL SELECT MIN(at) FROM deliveries WHERE campaign = $1 UNION ALL SELECT MAX(at) FROM deliveries WHERE campaign = $1
			) s`,
			[name],
		);
		const { first, last } = r.rows[0];
		return first === null || last === null ? undefined : { from: first, to: last };
	}

	async reportFigures(name: string, bucketSeconds: number): Promise<ReportFigures> {
		return transaction(this.pool, async (db) => ({
			failuresByPrefix: (
				await db.query<ReportFigures['failuresByPrefix'][number]>(
					`SELECT substr(r.to_number, 1, 6) AS prefix, MIN(r.to_number) AS sample, COUNT(*) AS count
					 FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
					 WHERE d.campaign = $1 AND d.status = 'Failed' AND r.to_number IS NOT NULL GROUP BY 1 ORDER BY 3 DESC`,
					[name],
				)
			).rows,
			sends: (await db.query<ReportFigures['sends'][number]>(`SELECT sent_at / 1000 / $2 * $2 AS at, COUNT(*) AS count FROM recipients WHERE campaign = $1 AND sent_at IS NOT NULL GROUP BY 1 ORDER BY 1`, [name, bucketSeconds])).rows,
			deliveries: (
				await db.query<ReportFigures['deliveries'][number]>(
					`SELECT at / $2 * $2 AS at, COUNT(*) FILTER (WHERE status = 'Delivered') AS delivered, COUNT(*) FILTER (WHERE status = 'Failed') AS failed FROM deliveries WHERE campaign = $1 GROUP BY 1 ORDER BY 1`,
					[name, bucketSeconds],
				)
			).rows,
			receiptTenths: (
				await db.query<ReportFigures['receiptTenths'][number]>(
					`SELECT GREATEST(0, (COALESCE(d.received_at, d.at * 1000) - r.sent_at) / 100) AS tenths, COUNT(*) AS count
					 FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
					 WHERE d.campaign = $1 AND r.sent_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
					[name],
				)
			).rows,
			sentByReceipt: (await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM recipients WHERE campaign = $1 AND attempted_at IS NOT NULL AND status = 'accepted'`, [name])).rows[0].n,
		}));
	}

	async campaignNames(): Promise<string[]> {
		return (await this.pool.query<{ name: string }>('SELECT name FROM campaigns ORDER BY name')).rows.map((r) => r.name);
	}

	private closed = false;

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}
}
