export const SCHEMA_VERSION = 3;

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
	-- Unused since schema 3 (submissions hold the chunks); kept so older files need no rewrite.
	chunk INTEGER,
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
	PRIMARY KEY (campaign, chunk)
) WITHOUT ROWID;
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

/**
 * From schema 2, whose rows carried status 'submitting' and were found through a status
 * index: each such chunk becomes a submission over its rows, which go back to pending.
 */
export const MIGRATE_FROM_2 = `
DROP INDEX IF EXISTS recipients_by_status;
INSERT OR IGNORE INTO submissions (campaign, chunk, first, last)
	SELECT campaign, COALESCE(chunk, 0), MIN(line), MAX(line) FROM recipients WHERE status = 'submitting' GROUP BY campaign, chunk;
UPDATE recipients SET status = 'pending' WHERE status = 'submitting';
`;
