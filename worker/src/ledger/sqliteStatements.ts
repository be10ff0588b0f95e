import type Database from 'better-sqlite3';

/** Every statement of the SQLite ledger, prepared once per connection. */
export function prepareStatements(db: Database.Database) {
	return {
		campaign: db.prepare(`SELECT * FROM campaigns WHERE name = ?`),
		deleteCampaign: ['recipients', 'submissions', 'deliveries', 'answers', 'message_sids', 'replies'].map((table) => db.prepare(`DELETE FROM ${table} WHERE campaign = ?`)).concat(db.prepare(`DELETE FROM campaigns WHERE name = ?`)),
		insertCampaign: db.prepare(`INSERT OR IGNORE INTO campaigns (name, spec, phase, created_at, updated_at) VALUES (?, ?, 'importing', ?, ?)`),
		setOwner: db.prepare(`UPDATE campaigns SET owner_pid = ?, owner_host = ?, owner_token = ?, heartbeat_at = ? WHERE name = ?`),
		heartbeat: db.prepare(`UPDATE campaigns SET heartbeat_at = ? WHERE name = ? AND owner_token = ?`),
		release: db.prepare(`UPDATE campaigns SET owner_pid = NULL, owner_host = NULL, owner_token = NULL, heartbeat_at = NULL WHERE name = ? AND owner_token = ?`),
		setPhase: db.prepare(`UPDATE campaigns SET phase = ?, updated_at = ? WHERE name = ?`),
		setPaused: db.prepare(`UPDATE campaigns SET paused = ?, updated_at = ? WHERE name = ?`),
		// The mark covering the most bytes is kept: a resumed import reads the file again from its start.
		setInput: db.prepare(`UPDATE campaigns SET input_bytes = ?, input_hash = ?, input_size = ?, input_mtime = ? WHERE name = ? AND (input_bytes IS NULL OR input_bytes <= ?)`),
		setImported: db.prepare(`UPDATE campaigns SET imported_through = ?, updated_at = ? WHERE name = ? AND imported_through < ?`),
		insertRow: db.prepare(
			`INSERT OR IGNORE INTO recipients (campaign, line, to_number, text, segments, status, error_code, message, time_zone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		),
		numbers: db.prepare(`SELECT to_number FROM recipients WHERE campaign = ? AND status NOT IN ('invalid', 'duplicate', 'suppressed') AND to_number IS NOT NULL`).pluck(),
		submissions: db.prepare(`SELECT chunk, first, last, at FROM submissions WHERE campaign = ? ORDER BY first`),
		submissionAt: db.prepare(`SELECT at FROM submissions WHERE campaign = ? AND chunk = ?`).pluck(),
		recover: db.prepare(
			`UPDATE recipients SET status = 'uncertain', error_code = NULL, message = 'the request may have reached the provider, but its answer was lost', attempted_at = ?
			 WHERE campaign = ? AND line BETWEEN ? AND ? AND status = 'pending'`,
		),
		// A receipt proves its message went out, whatever became of the answer; it was sent
		// when its request left, the time the report gives it. Timed first, while still pending.
		timeRecovered: db.prepare(
			`UPDATE deliveries SET sent_at = ? WHERE campaign = ? AND line BETWEEN ? AND ? AND sent_at IS NULL
			 AND EXISTS (SELECT 1 FROM recipients r WHERE r.campaign = deliveries.campaign AND r.line = deliveries.line AND r.status = 'pending')`,
		),
		resolveRecovered: db.prepare(
			`UPDATE recipients SET status = 'accepted', error_code = NULL, message = NULL, attempted_at = ?,
			 message_sid = (SELECT d.message_sid FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line)
			 WHERE campaign = ? AND line BETWEEN ? AND ? AND status = 'pending'
			 AND EXISTS (SELECT 1 FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line)`,
		),
		timeResolvedUncertain: db.prepare(
			`UPDATE deliveries SET sent_at = (SELECT r.attempted_at FROM recipients r WHERE r.campaign = deliveries.campaign AND r.line = deliveries.line)
			 WHERE campaign = ? AND sent_at IS NULL
			 AND EXISTS (SELECT 1 FROM recipients r WHERE r.campaign = deliveries.campaign AND r.line = deliveries.line AND r.status = 'uncertain')`,
		),
		resolveUncertain: db.prepare(
			`UPDATE recipients SET status = 'accepted', error_code = NULL, message = NULL,
			 message_sid = (SELECT d.message_sid FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line)
			 WHERE campaign = ? AND status = 'uncertain'
			 AND EXISTS (SELECT 1 FROM deliveries d WHERE d.campaign = recipients.campaign AND d.line = recipients.line)`,
		),
		resolveUncertainRow: db.prepare(`UPDATE recipients SET status = 'accepted', message_sid = ?, error_code = NULL, message = NULL WHERE campaign = ? AND line = ? AND status = 'uncertain'`),
		dropSubmission: db.prepare(`DELETE FROM submissions WHERE campaign = ? AND chunk = ?`),
		// Sent again, it will be timed by its answer.
		requeue: db.prepare(`UPDATE recipients SET status = 'pending', message = NULL, attempted_at = NULL WHERE campaign = ? AND status = 'uncertain'`),
		// substr, not LIKE: the stored messages hold '_' and LIKE would read it as a wildcard.
		// Every message in one pass (a JSON array): one statement per message scanned the whole
		// campaign once each, ~40 scans, 1.5 s before a 400,000-row run could send.
		requeueWith: db.prepare(
			`UPDATE recipients SET status = 'pending', message = NULL, attempted_at = NULL WHERE campaign = ? AND status = 'uncertain'
			 AND EXISTS (SELECT 1 FROM json_each(?) m WHERE substr(recipients.message, 1, length(m.value)) = m.value)`,
		),
		// The primary key walked from the caller's cursor: rows already sent are never passed over again.
		peek: db.prepare(
			`SELECT r.line, r.to_number, r.text, r.segments, r.time_zone, EXISTS (SELECT 1 FROM suppressions s WHERE s.number = r.to_number) AS suppressed
			 FROM recipients r WHERE r.campaign = ? AND r.line > ? AND r.status = 'pending' ORDER BY r.line LIMIT ?`,
		).raw(),
		// The same rows when the suppression list is empty: the look-up per row was 40% of a peek.
		peekUnsuppressed: db.prepare(
			`SELECT r.line, r.to_number, r.text, r.segments, r.time_zone, 0 AS suppressed
			 FROM recipients r WHERE r.campaign = ? AND r.line > ? AND r.status = 'pending' ORDER BY r.line LIMIT ?`,
		).raw(),
		anySuppression: db.prepare(`SELECT EXISTS (SELECT 1 FROM suppressions)`).pluck(),
		suppressRow: db.prepare(`UPDATE recipients SET status = 'suppressed', error_code = 'SUPPRESSED', message = 'the number is on the suppression list' WHERE campaign = ? AND line = ? AND status = 'pending'`),
		overlapping: db.prepare(`SELECT first, last FROM submissions WHERE campaign = ? AND first <= ? AND last >= ? LIMIT 1`),
		pendingIn: db.prepare(`SELECT line FROM recipients WHERE campaign = ? AND line BETWEEN ? AND ? AND status = 'pending'`).pluck(),
		addSubmission: db.prepare(`INSERT INTO submissions (campaign, chunk, first, last, at) VALUES (?, ?, ?, ?, ?)`),
		submittingCount: db.prepare(
			`SELECT COUNT(*) AS n FROM submissions s JOIN recipients r ON r.campaign = s.campaign AND r.line BETWEEN s.first AND s.last
			 WHERE s.campaign = ? AND r.status = 'pending'`,
		),
		settleRow: db.prepare(`UPDATE recipients SET status = ?, message_sid = NULL, error_code = ?, message = ?, attempted_at = ? WHERE campaign = ? AND line = ?`),
		acceptRange: db.prepare(`UPDATE recipients SET status = 'accepted', error_code = NULL, message = NULL WHERE campaign = ? AND line BETWEEN ? AND ? AND status = 'pending'`),
		acceptLine: db.prepare(`UPDATE recipients SET status = 'accepted', message_sid = NULL, error_code = NULL, message = NULL WHERE campaign = ? AND line = ?`),
		addAnswer: db.prepare(`INSERT INTO answers (campaign, first, last, sids, at) VALUES (?, ?, ?, ?, ?)`),
		// A receipt stored while its row's request was on its way, naming a MessageSid the
		// answer did not give: anyone could have written its ExternalId (recordDelivery).
		dropForeignReceipts: db.prepare(
			`DELETE FROM deliveries WHERE campaign = @campaign AND line BETWEEN @first AND @last
			 AND EXISTS (SELECT 1 FROM json_each(@sids) j WHERE j.value ->> 0 = deliveries.line AND j.value ->> 1 <> deliveries.message_sid)`,
		),
		dropReceipt: db.prepare(`DELETE FROM deliveries WHERE campaign = ? AND line = ?`),
		answersStarting: db.prepare(`SELECT first, last, sids FROM answers WHERE campaign = ? AND first BETWEEN ? AND ? AND last >= ? ORDER BY first, id`),
		answersAfter: db.prepare(`SELECT id, campaign, sids FROM answers WHERE id > ? ORDER BY id LIMIT ?`),
		indexedThrough: db.prepare(`SELECT value FROM meta WHERE key = 'sids_indexed_through'`).pluck(),
		setIndexedThrough: db.prepare(`INSERT INTO meta (key, value) VALUES ('sids_indexed_through', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
		clampIndexedThrough: db.prepare(`UPDATE meta SET value = (SELECT COALESCE(MAX(id), 0) FROM answers) WHERE key = 'sids_indexed_through' AND CAST(value AS INTEGER) > (SELECT COALESCE(MAX(id), 0) FROM answers)`),
		indexSid: db.prepare(`INSERT OR IGNORE INTO message_sids (message_sid, campaign, line) VALUES (?, ?, ?)`),
		cancel: db.prepare(
			`UPDATE recipients SET status = 'cancelled', message = 'the campaign was cancelled before this row was sent'
			 WHERE campaign = ? AND status = 'pending' AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.campaign = recipients.campaign AND recipients.line BETWEEN s.first AND s.last)`,
		),
		counts: db.prepare(`SELECT status, COUNT(*) AS n, SUM(segments) AS segs FROM recipients WHERE campaign = ? GROUP BY status`),
		rowsPage: db.prepare(`SELECT line, to_number, text, segments, status, error_code, message, message_sid FROM recipients WHERE campaign = ? AND line > ? ORDER BY line LIMIT ?`),
		// A forgotten number is suppressed under its hash.
		isSuppressed: db.prepare(`SELECT 1 FROM suppressions WHERE number IN (?, ?)`).pluck(),
		consentEvent: db.prepare(`INSERT INTO consent_events (number, at, kind, reason) VALUES (?, ?, ?, ?)`),
		suppressions: db.prepare(`SELECT number FROM suppressions`).pluck(),
		addSuppression: db.prepare(`INSERT INTO suppressions (number, reason, created_at) VALUES (?, ?, ?) ON CONFLICT (number) DO UPDATE SET reason = excluded.reason`),
		removeSuppression: db.prepare(`DELETE FROM suppressions WHERE number = ?`),
		rowNumber: db.prepare(`SELECT to_number FROM recipients WHERE campaign = ? AND line = ?`).pluck(),
		// A row whose MessageSid is not known, though it was sent or is being sent: uncertain,
		// or pending in a chunk on its way (a receipt may come before the answer is stored).
		awaitsSid: db.prepare(
			`SELECT 1 FROM recipients r WHERE r.campaign = ? AND r.line = ? AND (r.status = 'uncertain'
			 OR (r.status = 'pending' AND EXISTS (SELECT 1 FROM submissions s WHERE s.campaign = r.campaign AND s.first <= r.line AND s.last >= r.line)))`,
		).pluck(),
		// Before rows become accepted through their receipts: the MessageSid index learns their MessageSids.
		indexRecovered: db.prepare(
			`INSERT OR IGNORE INTO message_sids (message_sid, campaign, line) SELECT d.message_sid, d.campaign, d.line FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
			 WHERE d.campaign = ? AND d.line BETWEEN ? AND ? AND r.status = 'pending'`,
		),
		indexResolvedUncertain: db.prepare(
			`INSERT OR IGNORE INTO message_sids (message_sid, campaign, line) SELECT d.message_sid, d.campaign, d.line FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
			 WHERE d.campaign = ? AND r.status = 'uncertain'`,
		),
		rowBySid: db.prepare(`SELECT campaign, line FROM message_sids WHERE message_sid = ?`),
		recordDelivery: db.prepare(
			`INSERT INTO deliveries (campaign, line, message_sid, status, error_code, at, received_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			 ON CONFLICT (campaign, line) DO UPDATE SET message_sid = excluded.message_sid, status = excluded.status, error_code = excluded.error_code, at = excluded.at,
			 received_at = excluded.received_at, sent_at = COALESCE(excluded.sent_at, deliveries.sent_at)`,
		),
		// The answer that accepted a row: the one starting nearest before it (answers_by_line).
		uncertainAttemptedAt: db.prepare(`SELECT attempted_at FROM recipients WHERE campaign = ? AND line = ? AND status = 'uncertain'`).pluck(),
		answerAt: db.prepare(`SELECT at FROM answers WHERE campaign = ? AND first <= ? AND last >= ? ORDER BY first DESC LIMIT 1`).pluck(),
		delivery: db.prepare(`SELECT message_sid, status, error_code, at, received_at FROM deliveries WHERE campaign = ? AND line = ?`),
		// Only against a row of ours: an ExternalId of that shape may come from anyone's message.
		recordReply: db.prepare(
			`INSERT OR IGNORE INTO replies (campaign, line, message_sid, at, opt_out)
			 SELECT @campaign, @line, @messageSid, @at, @optOut WHERE EXISTS (SELECT 1 FROM recipients WHERE campaign = @campaign AND line = @line)`,
		),
		receiptsByCode: db.prepare(`SELECT status, COALESCE(error_code, '') AS code, COUNT(*) AS n FROM deliveries WHERE campaign = ? GROUP BY status, code`),
		acceptedCount: db.prepare(`SELECT COUNT(*) FROM recipients WHERE campaign = ? AND status = 'accepted'`).pluck(),
		acceptedWithReceipt: db.prepare(
			`SELECT COUNT(*) FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line WHERE d.campaign = ? AND r.status = 'accepted'`,
		).pluck(),
		replyCounts: db.prepare(`SELECT COUNT(DISTINCT line) AS replied, COUNT(DISTINCT CASE WHEN opt_out = 1 THEN line END) AS opted_out FROM replies WHERE campaign = ?`),
		answersSpan: db.prepare(`SELECT MIN(at) AS first, MAX(at) AS last FROM answers WHERE campaign = ? AND at IS NOT NULL`),
		// INDEXED BY: without statistics SQLite would walk every row of the campaign instead.
		attemptedSpan: db.prepare(`SELECT MIN(attempted_at) AS first, MAX(attempted_at) AS last FROM recipients INDEXED BY recipients_attempted WHERE campaign = ? AND attempted_at IS NOT NULL AND status = 'accepted'`),
		deliveriesSpan: db.prepare(`SELECT MIN(at) AS first, MAX(at) AS last FROM deliveries WHERE campaign = ?`),
		failuresByPrefix: db.prepare(
			`SELECT substr(r.to_number, 1, 6) AS prefix, MIN(r.to_number) AS sample, COUNT(*) AS count
			 FROM deliveries d JOIN recipients r ON r.campaign = d.campaign AND r.line = d.line
			 WHERE d.campaign = ? AND d.status = 'Failed' AND r.to_number IS NOT NULL GROUP BY prefix ORDER BY count DESC`,
		),
		// The bucket is bound twice (divide, multiply): CAST keeps the division whole.
		sendBuckets: db.prepare(
			`SELECT CAST(at / 1000 / ? AS INTEGER) * ? AS at, SUM(json_array_length(sids)) AS count FROM answers WHERE campaign = ? AND at IS NOT NULL GROUP BY 1 ORDER BY 1`,
		),
		// Messages a receipt showed were sent after their answer was lost, by when their request left.
		attemptBuckets: db.prepare(
			`SELECT CAST(attempted_at / 1000 / ? AS INTEGER) * ? AS at, COUNT(*) AS count FROM recipients INDEXED BY recipients_attempted WHERE campaign = ? AND attempted_at IS NOT NULL AND status = 'accepted' GROUP BY 1 ORDER BY 1`,
		),
		acceptedByReceipt: db.prepare(`SELECT COUNT(*) FROM recipients INDEXED BY recipients_attempted WHERE campaign = ? AND attempted_at IS NOT NULL AND status = 'accepted'`).pluck(),
		receiptBuckets: db.prepare(
			`SELECT CAST(at / ? AS INTEGER) * ? AS at, SUM(status = 'Delivered') AS delivered, SUM(status = 'Failed') AS failed FROM deliveries WHERE campaign = ? GROUP BY 1 ORDER BY 1`,
		),
		// sent_at, copied when the receipt was stored; looked up only where it was not known then.
		receiptTenths: db.prepare(
			`SELECT tenths, COUNT(*) AS count FROM (
				SELECT MAX(0, CAST((COALESCE(d.received_at, d.at * 1000) - COALESCE(d.sent_at,
					(SELECT a.at FROM answers a WHERE a.campaign = d.campaign AND a.first <= d.line AND a.last >= d.line ORDER BY a.first DESC LIMIT 1))) / 100 AS INTEGER)) AS tenths
				FROM deliveries d WHERE d.campaign = ?
			 ) WHERE tenths IS NOT NULL GROUP BY tenths ORDER BY tenths`,
		),
		campaignNames: db.prepare(`SELECT name FROM campaigns ORDER BY name`).pluck(),
	};
}

export type Statements = ReturnType<typeof prepareStatements>;
