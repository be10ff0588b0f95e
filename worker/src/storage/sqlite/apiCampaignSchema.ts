/** The API campaigns' tables in the worker's SQLite file; Postgres has the same in migration 6. */
export const API_CAMPAIGN_SCHEMA = `
CREATE TABLE IF NOT EXISTS api_campaigns (
	name TEXT PRIMARY KEY,
	settings TEXT NOT NULL,
	state TEXT NOT NULL,
	source TEXT,
	csv_hash TEXT,
	created_at INTEGER NOT NULL,
	started_at INTEGER,
	finished_at INTEGER,
	reason TEXT,
	updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS api_pages (
	campaign TEXT NOT NULL,
	page INTEGER NOT NULL,
	hash TEXT NOT NULL,
	recipients INTEGER NOT NULL,
	columns TEXT NOT NULL,
	body TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (campaign, page)
) WITHOUT ROWID;
`;
