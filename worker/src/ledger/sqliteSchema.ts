export const SCHEMA_VERSION = 2;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
	heartbeat_at INTEGER
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
	chunk INTEGER,
	PRIMARY KEY (campaign, line)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS recipients_by_status ON recipients (campaign, status, line);
CREATE TABLE IF NOT EXISTS deliveries (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	message_sid TEXT NOT NULL,
	status TEXT NOT NULL,
	error_code TEXT,
	at INTEGER NOT NULL,
	PRIMARY KEY (campaign, line)
) WITHOUT ROWID;
-- MessageSid -> row, for receipts whose ExternalId names no row. Not an index on
-- recipients: MessageSids are random, so indexing each one as its answer is stored dirtied
-- about one index page per message and made storing answers the slowest part of a run.
-- Answers name their line ranges in sid_backlog instead (in the same transaction), and the
-- ranges are copied here in bulk, in MessageSid order; lookups read both.
CREATE TABLE IF NOT EXISTS message_sids (
	message_sid TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sid_backlog (
	campaign TEXT NOT NULL,
	first INTEGER NOT NULL,
	last INTEGER NOT NULL,
	PRIMARY KEY (campaign, first, last)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS suppressions (
	number TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** From schema 1, whose MessageSid index on recipients is replaced by message_sids. */
export const MIGRATE_FROM_1 = `
DROP INDEX IF EXISTS recipients_by_message_sid;
INSERT OR IGNORE INTO message_sids (message_sid, campaign, line)
	SELECT message_sid, campaign, line FROM recipients WHERE message_sid IS NOT NULL ORDER BY message_sid;
`;
