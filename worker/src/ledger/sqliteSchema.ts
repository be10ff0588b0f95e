export const SCHEMA_VERSION = 1;

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
CREATE INDEX IF NOT EXISTS recipients_by_message_sid ON recipients (message_sid);
CREATE TABLE IF NOT EXISTS suppressions (
	number TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
`;
