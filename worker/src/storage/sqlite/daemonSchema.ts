/**
 * The daemon's tables, in the ledger's SQLite file (its own connection): one file holds
 * everything a restart needs.
 */
export const DAEMON_SCHEMA = `
CREATE TABLE IF NOT EXISTS callback_events (
	event_key TEXT PRIMARY KEY,
	kind TEXT NOT NULL,
	payload TEXT NOT NULL,
	received_at INTEGER NOT NULL,
	processed_at INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS callback_events_unprocessed ON callback_events (processed_at, received_at);
CREATE TABLE IF NOT EXISTS forwards (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	event_key TEXT NOT NULL,
	action_key TEXT NOT NULL,
	kind TEXT NOT NULL,
	payload TEXT NOT NULL,
	state TEXT NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at INTEGER NOT NULL,
	last_error TEXT,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	UNIQUE (event_key, action_key)
);
CREATE INDEX IF NOT EXISTS forwards_due ON forwards (state, next_at);
CREATE TABLE IF NOT EXISTS campaign_runs (
	run TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	finished_at INTEGER,
	outcome TEXT
) WITHOUT ROWID;
`;
