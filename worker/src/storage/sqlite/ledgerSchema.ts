/**
 * The ledger's tables as this release makes them in a new file. An older file gets the
 * tables it lacks from here too, then its numbered steps (SQLITE_MIGRATIONS) add what its
 * older tables lack.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- The versions applied, as on Postgres; meta 'schema' keeps the last too, which releases
-- before this table read to refuse a newer file.
CREATE TABLE IF NOT EXISTS cloudtel_schema (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns (
	name TEXT PRIMARY KEY,
	spec TEXT NOT NULL,
	phase TEXT NOT NULL,
	paused INTEGER NOT NULL DEFAULT 0,
	imported_through INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	owner_pid INTEGER,
	owner_host TEXT,
	owner_token TEXT,
	heartbeat_at INTEGER,
	-- What the import had read of its CSV (schema 7): a resume compares the file with it.
	input_bytes INTEGER,
	input_hash TEXT,
	input_size INTEGER,
	input_mtime INTEGER
);
CREATE TABLE IF NOT EXISTS recipients (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	to_number TEXT,
	text TEXT,
	segments INTEGER NOT NULL DEFAULT 0,
	status TEXT NOT NULL,
	error_code TEXT,
	message TEXT,
	message_sid TEXT,
	time_zone TEXT,
	-- Unused since schema 3 (submissions hold the chunks); kept so older files need no rewrite.
	chunk INTEGER,
	-- Unix milliseconds the request that may have carried it left, while it is uncertain and
	-- once a receipt has shown it was sent (schema 6): the send time the report gives a
	-- message whose answer was lost. NULL otherwise.
	attempted_at INTEGER,
	PRIMARY KEY (campaign, line)
) WITHOUT ROWID;
-- A chunk whose request may be on its way: its pending rows between first and last are
-- "submitting". One row per chunk, not a status written on each of its rows: marking and
-- settling each row moved it in a status index twice, and that was most of the worker's
-- time per message. Rows are read in line order from the primary key instead.
CREATE TABLE IF NOT EXISTS submissions (
	campaign TEXT NOT NULL,
	chunk INTEGER NOT NULL,
	first INTEGER NOT NULL,
	last INTEGER NOT NULL,
	-- Unix milliseconds it was marked, just before its request left (schema 6).
	at INTEGER,
	-- The worker that sent it, where several share a database (schema 8; Postgres's).
	worker TEXT,
	PRIMARY KEY (campaign, chunk)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deliveries (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	message_sid TEXT NOT NULL,
	status TEXT NOT NULL,
	error_code TEXT,
	-- The receipt's Timestamp, Unix seconds (the provider's clock).
	at INTEGER NOT NULL,
	-- Unix milliseconds the worker received it: with answers.at, the time from send to
	-- receipt to better than the Timestamp's second. NULL before schema 4.
	received_at INTEGER,
	-- Unix milliseconds of the answer that accepted the message, copied when the receipt is
	-- stored, so the report's time to receipt is one scan, not a look-up per receipt. NULL
	-- before schema 4, or when the receipt came before the answer.
	sent_at INTEGER,
	PRIMARY KEY (campaign, line)
) WITHOUT ROWID;
-- The report's failures (by ErrorCode, by country) without a scan of every receipt.
CREATE INDEX IF NOT EXISTS deliveries_by_status ON deliveries (campaign, status, error_code);
-- The MessageSids of a chunk's accepted messages, in one row per answer: JSON
-- [[line, MessageSid], ...] in line order. Not a column written on each row: an UPDATE per
-- row, each growing its row, was the largest cost of storing an answer. The rows' status is
-- still written on each row, in one statement per chunk.
CREATE TABLE IF NOT EXISTS answers (
	id INTEGER PRIMARY KEY,
	campaign TEXT NOT NULL,
	first INTEGER NOT NULL,
	last INTEGER NOT NULL,
	sids TEXT NOT NULL,
	-- Unix milliseconds the answer was stored: when its messages were sent, for the report
	-- (sends over time, time to receipt). NULL in answers stored before schema 4.
	at INTEGER
);
CREATE INDEX IF NOT EXISTS answers_by_line ON answers (campaign, first);
-- MessageSid -> row: a receipt changes the row that sent its MessageSid, whatever its
-- ExternalId says (anyone can write one), and a START must answer a message sent to its
-- number. Built from answers when a receipt or a reply needs it (meta
-- 'sids_indexed_through' is the last answer copied).
CREATE TABLE IF NOT EXISTS message_sids (
	message_sid TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL
) WITHOUT ROWID;
-- Replies to a campaign's messages, by the row their ExternalId names: the report's
-- replied and opted-out counts. One row per inbound MessageSid, so a reply stored twice
-- counts once.
CREATE TABLE IF NOT EXISTS replies (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	message_sid TEXT NOT NULL,
	at INTEGER NOT NULL,
	opt_out INTEGER NOT NULL,
	PRIMARY KEY (campaign, line, message_sid)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS suppressions (
	number TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
-- Every opt-out and opt-in, with its time (schema 7): \`contact show\` tells a number's
-- consent trail; the suppression list holds only where it stands now.
CREATE TABLE IF NOT EXISTS consent_events (
	number TEXT NOT NULL,
	at INTEGER NOT NULL,
	kind TEXT NOT NULL,
	reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS consent_events_by_number ON consent_events (number);
`;

/**
 * SQLite's numbered steps, each from the version before it. Every table exists by then
 * (SCHEMA), so a step adds only the columns an older table lacks, and moves data.
 */
export const SQLITE_MIGRATIONS: readonly { version: number; sql?: string; columns?: [table: string, column: string, type?: string][] }[] = [
	// Schema 1's MessageSid index on recipients is replaced by message_sids.
	{
		version: 2,
		sql: `
DROP INDEX IF EXISTS recipients_by_message_sid;
INSERT OR IGNORE INTO message_sids (message_sid, campaign, line)
	SELECT message_sid, campaign, line FROM recipients WHERE message_sid IS NOT NULL ORDER BY message_sid;
`,
	},
	// Schema 2's rows carried status 'submitting' and were found through a status index: each
	// such chunk becomes a submission over its rows, which go back to pending. Its MessageSids
	// stay in recipients.message_sid; those still in its backlog are indexed.
	{
		version: 3,
		sql: `
DROP INDEX IF EXISTS recipients_by_status;
INSERT OR IGNORE INTO submissions (campaign, chunk, first, last)
	SELECT campaign, COALESCE(chunk, 0), MIN(line), MAX(line) FROM recipients WHERE status = 'submitting' GROUP BY campaign, chunk;
UPDATE recipients SET status = 'pending' WHERE status = 'submitting';
CREATE TABLE IF NOT EXISTS sid_backlog (campaign TEXT NOT NULL, first INTEGER NOT NULL, last INTEGER NOT NULL, PRIMARY KEY (campaign, first, last)) WITHOUT ROWID;
INSERT OR IGNORE INTO message_sids (message_sid, campaign, line)
	SELECT r.message_sid, r.campaign, r.line FROM sid_backlog b JOIN recipients r ON r.campaign = b.campaign AND r.line BETWEEN b.first AND b.last
	WHERE r.message_sid IS NOT NULL ORDER BY r.message_sid;
DROP TABLE sid_backlog;
`,
	},
	// When answers were stored and receipts received.
	{ version: 4, columns: [['answers', 'at'], ['deliveries', 'received_at']] },
	// When a receipt's message was sent.
	{ version: 5, columns: [['deliveries', 'sent_at']] },
	// When a chunk's request left, and an uncertain row's.
	{ version: 6, columns: [['submissions', 'at'], ['recipients', 'attempted_at']] },
	// What an import had read of its CSV.
	{ version: 7, columns: [['campaigns', 'input_bytes'], ['campaigns', 'input_hash', 'TEXT'], ['campaigns', 'input_size'], ['campaigns', 'input_mtime']] },
	// The worker that sent a chunk (Postgres's, where several share a database): one data model.
	{ version: 8, columns: [['submissions', 'worker', 'TEXT']] },
];

export const SCHEMA_VERSION = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1].version;

/**
 * Made once the columns it covers exist (after any migration): the report finds the few
 * rows timed from their request without a scan of the campaign.
 */
export const INDEXES = `
CREATE INDEX IF NOT EXISTS recipients_attempted ON recipients (campaign, attempted_at) WHERE attempted_at IS NOT NULL;
`;
