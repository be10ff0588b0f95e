import type { Dialect } from './work';

/** Row messages the ledger writes, each in one place. */
export const ANSWER_LOST = 'the request may have reached the provider, but its answer was lost';
export const SUPPRESSED = 'the number is on the suppression list';
/** meta's key prefix for a worker's stamp that its callbacks are in (stampCallbacksIn). */
export const CALLBACKS_IN = 'callbacks-in:';
export const CANCELLED = 'the campaign was cancelled before this row was sent';

/** A new campaign, importing; one of the name already there is kept (a run of it, or an API start, came first). */
export const INSERT_CAMPAIGN = `INSERT INTO campaigns (name, spec, phase, created_at, updated_at) VALUES ($1, $2, 'importing', $3, $3) ON CONFLICT (name) DO NOTHING`;

const RECIPIENT = 'line, to_number, text, segments, status, error_code, message, message_sid';
/** A row and whether its number is on the suppression list, for the send path (raw). */
const SENDABLE = 'r.line, r.to_number, r.text, r.segments, r.time_zone';
/** After the suppression look: a variant campaign's row's variant, for its ExternalId. */
const VARIANT = 'r.variant';
const SUPPRESSED_NOW =
	'CASE WHEN (SELECT EXISTS (SELECT 1 FROM suppressions)) THEN EXISTS (SELECT 1 FROM suppressions s WHERE s.number = r.to_number) ELSE false END';
/** A JSON array of [line, status, MessageSid, ErrorCode, message] rows. */
const settled = (d: Dialect) =>
	`SELECT CAST(v.value ->> 0 AS INTEGER) AS line, v.value ->> 1 AS status, v.value ->> 2 AS sid, v.value ->> 3 AS code, v.value ->> 4 AS msg FROM ${d.jsonRows('$2', 'v')}`;
const lines = (d: Dialect, param: string) =>
	`SELECT CAST(l.value AS INTEGER) FROM ${d.jsonTexts(param, 'l')}`;
/** When the answer that accepted a row was stored: the answer starting nearest before it (answers_by_line). */
const answerAt = (campaign: string, line: string) =>
	`(SELECT a.at FROM answers a WHERE a.campaign = ${campaign} AND a.first <= ${line} AND a.last >= ${line} ORDER BY a.first DESC LIMIT 1)`;

/**
 * Every statement of the ledger, for one backend. Written once in Postgres's dialect where
 * the two differ only in it; `d` renders what does not (JSON, a few functions).
 */
export function ledgerSql(d: Dialect) {
	return {
		// With the guardrail that paused it, and the cancel its run had to settle, if any (guardSql.ts).
		campaign: `SELECT c.*, m.value AS paused_by, x.value AS cancelled_by FROM campaigns c
			LEFT JOIN meta m ON m.key = 'paused-by:' || c.name LEFT JOIN meta x ON x.key = 'cancelled-by:' || c.name WHERE c.name = $1`,
		insertCampaign: INSERT_CAMPAIGN,
		setOwner: `UPDATE campaigns SET owner_pid = $1, owner_host = $2, owner_token = $3, heartbeat_at = $4 WHERE name = $5`,
		heartbeat: `UPDATE campaigns SET heartbeat_at = $1 WHERE name = $2 AND owner_token = $3`,
		release: `UPDATE campaigns SET owner_pid = NULL, owner_host = NULL, owner_token = NULL, heartbeat_at = NULL WHERE name = $1 AND owner_token = $2`,
		setPhase: `UPDATE campaigns SET phase = $1, updated_at = $2 WHERE name = $3`,
		setPaused: `UPDATE campaigns SET paused = $1, updated_at = $2 WHERE name = $3`,
		deleteFrom: (table: string) =>
			`DELETE FROM ${table} WHERE ${table === 'campaigns' ? 'name' : table === 'campaign_runs' ? 'run' : 'campaign'} = $1`,
		// Answer ids are reused once the last ones are gone (SQLite): the MessageSid index must not think itself past answers yet to come.
		clampIndexedThrough: `UPDATE meta SET value = (SELECT COALESCE(MAX(id), 0) FROM answers) WHERE key = 'sids_indexed_through' AND CAST(value AS BIGINT) > (SELECT COALESCE(MAX(id), 0) FROM answers)`,
		insertRows: `INSERT INTO recipients (campaign, line, to_number, text, segments, status, error_code, message, time_zone, variant)
			SELECT $1, CAST(j.value ->> 0 AS INTEGER), j.value ->> 1, j.value ->> 2, CAST(j.value ->> 3 AS INTEGER), j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7, CAST(j.value ->> 8 AS INTEGER)
			FROM ${d.jsonRows('$2', 'j')} WHERE true ON CONFLICT (campaign, line) DO NOTHING`,
		setImported: `UPDATE campaigns SET imported_through = $1, updated_at = $2 WHERE name = $3 AND imported_through < $1`,
		// The mark covering the most bytes is kept: a resumed import reads the file again from its start.
		setInput: `UPDATE campaigns SET input_bytes = $1, input_hash = $2, input_size = $3, input_mtime = $4 WHERE name = $5 AND (input_bytes IS NULL OR input_bytes <= $1)`,
		numbers: `SELECT line, to_number FROM recipients WHERE campaign = $1 AND line > $2 AND status NOT IN ('invalid', 'duplicate', 'suppressed') AND to_number IS NOT NULL ORDER BY line LIMIT $3`,

		submissions: `SELECT chunk, first, last, at FROM submissions WHERE campaign = $1 ORDER BY first`,
		addSubmission: `INSERT INTO submissions (campaign, chunk, first, last, at, worker) VALUES ($1, $2, $3, $4, $5, $6)`,
		dropSubmission: `DELETE FROM submissions WHERE campaign = $1 AND chunk = $2 RETURNING at`,
		overlapping: `SELECT chunk, first, last, worker FROM submissions WHERE campaign = $1 AND first <= $2 AND last >= $3 LIMIT 1`,
		pendingIn: `SELECT line FROM recipients WHERE campaign = $1 AND line BETWEEN $2 AND $3 AND status = 'pending'`,
		inFlight: `SELECT COUNT(*) AS n FROM submissions WHERE campaign = $1`,

		// Recovery of one chunk whose answer never came ($1 campaign, $2..$3 its lines, $4 when
		// its request left). A receipt proves its message went out, whatever became of the
		// answer: it was sent when its request left, the time the report gives it. Timed and
		// indexed first, while the rows are still pending.
		timeRecovered: `UPDATE deliveries SET sent_at = $4 WHERE campaign = $1 AND line BETWEEN $2 AND $3 AND sent_at IS NULL
			AND EXISTS (SELECT 1 FROM recipients r WHERE r.campaign = deliveries.campaign AND r.line = deliveries.line AND r.status = 'pending')`,
		indexRecovered: `INSERT INTO message_sids (message_sid, campaign, line) SELECT d.message_sid, d.campaign, d.line FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
			WHERE d.campaign = $1 AND d.line BETWEEN $2 AND $3 AND r.status = 'pending' ON CONFLICT DO NOTHING`,
		resolveRecovered: `UPDATE recipients SET status = 'accepted', error_code = NULL, message = NULL, attempted_at = $4,
			message_sid = (SELECT d.message_sid FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line)
			WHERE campaign = $1 AND line BETWEEN $2 AND $3 AND status = 'pending'
			AND EXISTS (SELECT 1 FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line) RETURNING line`,
		recover: `UPDATE recipients SET status = 'uncertain', error_code = NULL, message = $5, attempted_at = $4
			WHERE campaign = $1 AND line BETWEEN $2 AND $3 AND status = 'pending' RETURNING line`,

		timeResolvedUncertain: `UPDATE deliveries SET sent_at = (SELECT r.attempted_at FROM recipients r WHERE r.campaign = deliveries.campaign AND r.line = deliveries.line)
			WHERE campaign = $1 AND sent_at IS NULL
			AND EXISTS (SELECT 1 FROM recipients r WHERE r.campaign = deliveries.campaign AND r.line = deliveries.line AND r.status = 'uncertain')`,
		indexResolvedUncertain: `INSERT INTO message_sids (message_sid, campaign, line) SELECT d.message_sid, d.campaign, d.line FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
			WHERE d.campaign = $1 AND r.status = 'uncertain' ON CONFLICT DO NOTHING`,
		resolveUncertain: `UPDATE recipients SET status = 'accepted', error_code = NULL, message = NULL,
			message_sid = (SELECT d.message_sid FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line)
			WHERE campaign = $1 AND status = 'uncertain'
			AND EXISTS (SELECT 1 FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line)`,
		// Sent again, they will be timed by their answer.
		requeue: `UPDATE recipients SET status = 'pending', message = NULL, attempted_at = NULL WHERE campaign = $1 AND status = 'uncertain'`,
		// substr, not LIKE: the stored messages hold '_', which LIKE reads as a wildcard. Every
		// message in one pass: one statement per message scanned the whole campaign once each.
		requeueWith: `UPDATE recipients SET status = 'pending', message = NULL, attempted_at = NULL WHERE campaign = $1 AND status = 'uncertain'
			AND EXISTS (SELECT 1 FROM ${d.jsonTexts('$2', 'm')} WHERE substr(recipients.message, 1, length(m.value)) = m.value)`,

		// The primary key walked from the caller's cursor: rows already sent are never passed over
		// again. The look-up per row (40% of a peek) only while the suppression list has a number.
		peek: `SELECT ${SENDABLE}, ${SUPPRESSED_NOW} AS suppressed, ${VARIANT} FROM recipients r WHERE r.campaign = $1 AND r.line > $2 AND r.status = 'pending' ORDER BY r.line LIMIT $3`,
		// Pending rows no chunk on its way covers, for a claim among several workers.
		claimable: `SELECT ${SENDABLE}, ${SUPPRESSED_NOW} AS suppressed, ${VARIANT}
			FROM recipients r WHERE r.campaign = $1 AND r.status = 'pending'
			AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.campaign = r.campaign AND r.line BETWEEN s.first AND s.last) ORDER BY r.line LIMIT $2`,
		suppressRows: `UPDATE recipients SET status = 'suppressed', error_code = 'SUPPRESSED', message = $3 WHERE campaign = $1 AND status = 'pending' AND line IN (${lines(d, '$2')})`,

		settleRows: `UPDATE recipients SET status = v.status, message_sid = NULL, error_code = v.code, message = v.msg,
			attempted_at = CASE WHEN v.status = 'uncertain' THEN CAST($3 AS BIGINT) END FROM (${settled(d)}) AS v WHERE recipients.campaign = $1 AND recipients.line = v.line`,
		// Refused by the provider, it was never sent: a receipt for it was not the provider's.
		dropReceipts: `DELETE FROM deliveries WHERE campaign = $1 AND line IN (${lines(d, '$2')})`,
		acceptRange: `UPDATE recipients SET status = 'accepted', error_code = NULL, message = NULL WHERE campaign = $1 AND line BETWEEN $2 AND $3 AND status = 'pending'`,
		acceptLines: `UPDATE recipients SET status = 'accepted', message_sid = NULL, error_code = NULL, message = NULL WHERE campaign = $1 AND line IN (${lines(d, '$2')})`,
		addAnswer: `INSERT INTO answers (campaign, first, last, sids, at) VALUES ($1, $2, $3, $4, $5)`,
		// A receipt stored while its row's request was on its way, naming a MessageSid the
		// answer did not give: anyone could have written its ExternalId (recordDelivery).
		dropForeignReceipts: `DELETE FROM deliveries WHERE campaign = $1 AND line BETWEEN $2 AND $3
			AND EXISTS (SELECT 1 FROM ${d.jsonRows('$4', 'j')} WHERE CAST(j.value ->> 0 AS INTEGER) = deliveries.line AND j.value ->> 1 <> deliveries.message_sid)`,
		cancel: `UPDATE recipients SET status = 'cancelled', message = $2
			WHERE campaign = $1 AND status = 'pending' AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.campaign = recipients.campaign AND recipients.line BETWEEN s.first AND s.last)`,

		counts: `SELECT status, COUNT(*) AS n, SUM(segments) AS segs FROM recipients WHERE campaign = $1 GROUP BY status`,
		submittingCount: `SELECT COUNT(*) AS n FROM submissions s JOIN recipients r ON r.campaign = s.campaign AND r.line BETWEEN s.first AND s.last WHERE s.campaign = $1 AND r.status = 'pending'`,
		rowsPage: `SELECT ${RECIPIENT} FROM recipients WHERE campaign = $1 AND line > $2 ORDER BY line LIMIT $3`,
		rowsWith: (statuses: number) =>
			`SELECT ${RECIPIENT} FROM recipients WHERE campaign = $1 AND line > $2 AND status IN (${Array.from({ length: statuses }, (_, i) => `$${i + 4}`).join(', ')}) ORDER BY line LIMIT $3`,
		// Answers a page of rows may take their MessageSids from: starting after the last page's, reaching into this one.
		answersFor: `SELECT first, last, sids FROM answers WHERE campaign = $1 AND first BETWEEN $2 AND $3 AND last >= $4 ORDER BY first, id`,

		// A forgotten number is suppressed under its hash.
		isSuppressed: `SELECT 1 AS found FROM suppressions WHERE number IN ($1, $2)`,
		suppressions: `SELECT number FROM suppressions WHERE number > $1 ORDER BY number LIMIT $2`,
		// A worker's word that every callback it took is in and processed, as of the database's now (meta's 'callbacks-in:<worker>').
		// The value: its time, then the worker's host and pid (`<ms> <host> <pid>`).
		stampCallbacksIn: `INSERT INTO meta (key, value) VALUES ($1, CAST(${d.nowMs} AS TEXT) || $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		dropCallbacksStamp: `DELETE FROM meta WHERE key = $1`,
		callbacksStamps: `SELECT key, value, ${d.nowMs} AS now FROM meta WHERE key LIKE 'callbacks-in:%'`,
		suppressedAmong: `SELECT number FROM suppressions WHERE number IN (SELECT l.value FROM ${d.jsonTexts('$1', 'l')})`,
		addSuppression: `INSERT INTO suppressions (number, reason, created_at) VALUES ($1, $2, $3) ON CONFLICT (number) DO UPDATE SET reason = excluded.reason`,
		removeSuppression: `DELETE FROM suppressions WHERE number = $1`,
		consentEvent: `INSERT INTO consent_events (number, at, kind, reason) VALUES ($1, $2, $3, $4)`,
		// A number's consent is stored the first time a list gives it, and kept.
		addConsents: `INSERT INTO consent_events (number, at, kind, reason)
			SELECT c.value ->> 0, CAST(c.value ->> 1 AS BIGINT), 'consent', c.value ->> 2 FROM ${d.jsonRows('$1', 'c')}
			WHERE NOT EXISTS (SELECT 1 FROM consent_events e WHERE e.number = c.value ->> 0 AND e.kind = 'consent')`,
		consentedAmong: `SELECT DISTINCT number FROM consent_events WHERE kind = 'consent' AND number IN (SELECT l.value FROM ${d.jsonTexts('$1', 'l')})`,
		lastConsentEvent: `SELECT MAX(at) AS at FROM consent_events WHERE number = $1 AND kind = $2`,
		// A reply held for review, until a person settles it or the number opts out by other means.
		pendingReviews: `SELECT e.number, e.at, e.reason FROM consent_events e WHERE e.kind = 'review' AND NOT EXISTS (SELECT 1 FROM consent_events l WHERE l.number = e.number AND l.kind IN ('review-rejected', 'opt-out') AND l.at >= e.at) ORDER BY e.at, e.number`,

		rowBySid: `SELECT campaign, line FROM message_sids WHERE message_sid = $1`,
		rowNumber: `SELECT to_number FROM recipients WHERE campaign = $1 AND line = $2`,
		// A row whose MessageSid is not known, though it was sent or is being sent: uncertain,
		// or pending in a chunk on its way (a receipt may come before the answer is stored).
		awaitsSid: `SELECT 1 AS found FROM recipients r WHERE r.campaign = $1 AND r.line = $2 AND (r.status = 'uncertain'
			OR (r.status = 'pending' AND EXISTS (SELECT 1 FROM submissions s WHERE s.campaign = r.campaign AND s.first <= r.line AND s.last >= r.line)))`,
		// Sent when its answer was stored; with no answer, an uncertain row was sent when its request left, as this receipt shows.
		recordDelivery: `INSERT INTO deliveries (campaign, line, message_sid, status, error_code, at, received_at, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7,
			COALESCE(${answerAt('$1', '$2')}, (SELECT attempted_at FROM recipients WHERE campaign = $1 AND line = $2 AND status = 'uncertain')))
			ON CONFLICT (campaign, line) DO UPDATE SET message_sid = excluded.message_sid, status = excluded.status, error_code = excluded.error_code, at = excluded.at,
			received_at = excluded.received_at, sent_at = COALESCE(excluded.sent_at, deliveries.sent_at)`,
		resolveUncertainRow: `UPDATE recipients SET status = 'accepted', message_sid = $1, error_code = NULL, message = NULL WHERE campaign = $2 AND line = $3 AND status = 'uncertain'`,
		indexSid: `INSERT INTO message_sids (message_sid, campaign, line) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		indexedThrough: `SELECT value FROM meta WHERE key = 'sids_indexed_through'`,
		setIndexedThrough: `INSERT INTO meta (key, value) VALUES ('sids_indexed_through', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		answerAfter: `SELECT 1 AS found FROM answers WHERE id > $1 LIMIT 1`,
		answersPageEnd: `SELECT MAX(id) AS id, COUNT(*) AS n FROM (SELECT id FROM answers WHERE id > $1 ORDER BY id LIMIT $2) AS page`,
		// Sorted, so the random MessageSids fill the index page by page.
		indexAnswers: `INSERT INTO message_sids (message_sid, campaign, line) SELECT j.value ->> 1, a.campaign, CAST(j.value ->> 0 AS INTEGER)
			FROM answers a, ${d.jsonRows('a.sids', 'j')} WHERE a.id > $1 AND a.id <= $2 ORDER BY 1 ON CONFLICT DO NOTHING`,
		delivery: `SELECT message_sid, status, error_code, at, received_at FROM deliveries WHERE campaign = $1 AND line = $2`,
		// Only against a row of ours: an ExternalId of that shape may come from anyone's message.
		recordReply: `INSERT INTO replies (campaign, line, message_sid, at, opt_out)
			SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM recipients WHERE campaign = $1 AND line = $2) ON CONFLICT DO NOTHING`,

		// Grouped as the index deliveries_by_status is ordered (no sort of every receipt); a NULL code is '' to the caller.
		receiptsByCode: `SELECT status, error_code AS code, COUNT(*) AS n FROM deliveries WHERE campaign = $1 GROUP BY status, error_code`,
		// With every receipt counted (receiptsByCode) and the accepted rows: the rows awaiting a receipt.
		// A receipt always has its row; the look-up is made only for the few rows not accepted.
		acceptedCount: `SELECT COUNT(*) AS n FROM recipients WHERE campaign = $1 AND status = 'accepted'`,
		receiptsNotAccepted: `SELECT COUNT(*) AS n FROM recipients r WHERE r.campaign = $1 AND r.status <> 'accepted'
			AND EXISTS (SELECT 1 FROM deliveries d WHERE d.campaign = r.campaign AND d.line = r.line)`,
		replyCounts: `SELECT COUNT(DISTINCT line) AS replied, COUNT(DISTINCT CASE WHEN opt_out THEN line END) AS opted_out FROM replies WHERE campaign = $1`,
		answersSpan: `SELECT MIN(at) AS first, MAX(at) AS last FROM answers WHERE campaign = $1 AND at IS NOT NULL`,
		// Messages a receipt showed were sent after their answer was lost, timed from when their request left.
		attemptedSpan: `SELECT MIN(attempted_at) AS first, MAX(attempted_at) AS last FROM recipients ${d.indexedBy('recipients_attempted')} WHERE campaign = $1 AND attempted_at IS NOT NULL AND status = 'accepted'`,
		deliveriesSpan: `SELECT MIN(at) AS first, MAX(at) AS last FROM deliveries WHERE campaign = $1`,
		failuresByPrefix: `SELECT substr(r.to_number, 1, 6) AS prefix, MIN(r.to_number) AS sample, COUNT(*) AS count
			FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
			WHERE d.campaign = $1 AND d.status = 'Failed' AND r.to_number IS NOT NULL GROUP BY substr(r.to_number, 1, 6) ORDER BY 3 DESC`,
		sendBuckets: `SELECT CAST(at / 1000 / $2 AS BIGINT) * $2 AS at, SUM(json_array_length(${d.json('sids')})) AS count FROM answers WHERE campaign = $1 AND at IS NOT NULL GROUP BY 1 ORDER BY 1`,
		attemptBuckets: `SELECT CAST(attempted_at / 1000 / $2 AS BIGINT) * $2 AS at, COUNT(*) AS count FROM recipients ${d.indexedBy('recipients_attempted')}
			WHERE campaign = $1 AND attempted_at IS NOT NULL AND status = 'accepted' GROUP BY 1 ORDER BY 1`,
		acceptedByReceipt: `SELECT COUNT(*) AS n FROM recipients ${d.indexedBy('recipients_attempted')} WHERE campaign = $1 AND attempted_at IS NOT NULL AND status = 'accepted'`,
		receiptBuckets: `SELECT CAST(at / $2 AS BIGINT) * $2 AS at, SUM(CASE WHEN status = 'Delivered' THEN 1 ELSE 0 END) AS delivered, SUM(CASE WHEN status = 'Failed' THEN 1 ELSE 0 END) AS failed
			FROM deliveries WHERE campaign = $1 GROUP BY 1 ORDER BY 1`,
		// sent_at, copied when the receipt was stored; looked up only where it was not known then.
		// The LIMIT (no limit) keeps SQLite from flattening the subquery into the GROUP BY, which
		// computed each receipt's tenths, with its look-up, several times over.
		receiptTenths: `SELECT tenths, COUNT(*) AS count FROM (
				SELECT ${d.greatest('0', `CAST((COALESCE(d.received_at, d.at * 1000) - COALESCE(d.sent_at, ${answerAt('d.campaign', 'd.line')})) / 100 AS BIGINT)`)} AS tenths
				FROM deliveries d WHERE d.campaign = $1 LIMIT 9223372036854775807
			) AS t WHERE tenths IS NOT NULL GROUP BY tenths ORDER BY tenths`,
		campaignNames: `SELECT name FROM campaigns ORDER BY name`,

		// contact show / forget: by the index of numbers the frequency cap needs (schema 11).
		contactRows: `SELECT campaign, line, status, text, message_sid, attempted_at, message FROM recipients WHERE to_number = $1`,
		contactAnswer: `SELECT sids, at FROM answers WHERE campaign = $1 AND first <= $2 AND last >= $2 ORDER BY id DESC LIMIT 1`,
		// The reply's text is kept only in its callback (until retention prunes it).
		contactReplies: `SELECT r.message_sid, r.at, r.opt_out, e.payload FROM replies r LEFT JOIN callback_events e ON e.event_key = 'reply:' || r.message_sid WHERE r.campaign = $1 AND r.line = $2`,
		consentEvents: `SELECT at, kind, reason FROM consent_events WHERE number = $1`,
		suppression: `SELECT reason, created_at FROM suppressions WHERE number = $1`,
		eraseRow: (table: string) => `DELETE FROM ${table} WHERE campaign = $1 AND line = $2`,
		dropKeyIfBoth: `DELETE FROM suppressions WHERE number = $1 AND EXISTS (SELECT 1 FROM suppressions WHERE number = $2)`,
		rekeySuppression: `UPDATE suppressions SET number = $1 WHERE number = $2`,
		rekeyConsent: `UPDATE consent_events SET number = $1 WHERE number = $2`,
		eraseCallbacks: (table: string) => `DELETE FROM ${table} WHERE ${d.contains('payload', '$1')}`,
		tableExists: d.tableExists,
		lock: d.lock,
		lockShared: d.lockShared,
	};
}

export type LedgerSql = ReturnType<typeof ledgerSql>;
