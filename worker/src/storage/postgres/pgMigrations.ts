/**
 * The Postgres schema, as numbered migrations: a database is moved forward one number at
 * a time, each in the transaction that records it, so every worker finds it either before
 * or after a migration, never halfway. Append; never edit one that has shipped.
 */
export const PG_MIGRATIONS: readonly { version: number; sql: string }[] = [
	{
		version: 1,
		sql: `
CREATE TABLE campaigns (
	name TEXT PRIMARY KEY,
	spec TEXT NOT NULL,
	phase TEXT NOT NULL,
	paused BOOLEAN NOT NULL DEFAULT false,
	imported_through INTEGER NOT NULL DEFAULT 0,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	owner_pid INTEGER,
	owner_host TEXT,
	owner_token TEXT,
	heartbeat_at BIGINT
);
-- Unlike SQLite's, a row on its way carries status 'submitting' and its chunk: Postgres
-- moves a row between partial indexes cheaply, and several workers mark rows at once.
CREATE TABLE recipients (
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
	chunk BIGINT,
	-- Unix milliseconds the answer that accepted it was stored: the report's sends over time.
	sent_at BIGINT,
	PRIMARY KEY (campaign, line)
);
CREATE INDEX recipients_pending ON recipients (campaign, line) WHERE status = 'pending';
CREATE INDEX recipients_submitting ON recipients (campaign, chunk) WHERE status = 'submitting';
CREATE INDEX recipients_by_message_sid ON recipients (message_sid) WHERE message_sid IS NOT NULL;
CREATE TABLE submissions (
	campaign TEXT NOT NULL,
	chunk BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (campaign, chunk)
);
CREATE TABLE deliveries (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	message_sid TEXT NOT NULL,
	status TEXT NOT NULL,
	error_code TEXT,
	-- The receipt's Timestamp, Unix seconds (the provider's clock).
	at BIGINT NOT NULL,
	-- Unix milliseconds the worker received it.
	received_at BIGINT,
	PRIMARY KEY (campaign, line)
);
-- One row per inbound MessageSid, so a reply stored twice (by two workers) counts once.
CREATE TABLE replies (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	message_sid TEXT NOT NULL,
	at BIGINT NOT NULL,
	opt_out BOOLEAN NOT NULL,
	PRIMARY KEY (campaign, line, message_sid)
);
CREATE TABLE suppressions (
	number TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE TABLE callback_events (
	event_key TEXT PRIMARY KEY,
	kind TEXT NOT NULL,
	payload TEXT NOT NULL,
	received_at BIGINT NOT NULL,
	processed_at BIGINT
);
CREATE INDEX callback_events_unprocessed ON callback_events (received_at) WHERE processed_at IS NULL;
CREATE TABLE forwards (
	id BIGSERIAL PRIMARY KEY,
	event_key TEXT NOT NULL,
	action_key TEXT NOT NULL,
	kind TEXT NOT NULL,
	payload TEXT NOT NULL,
	state TEXT NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at BIGINT NOT NULL,
	last_error TEXT,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	UNIQUE (event_key, action_key)
);
CREATE INDEX forwards_due ON forwards (next_at, id) WHERE state = 'pending';
CREATE TABLE campaign_runs (
	run TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	started_at BIGINT NOT NULL,
	finished_at BIGINT,
	outcome TEXT
);
`,
	},
	{
		version: 2,
		sql: `
-- Several workers on one database: each live one holds a lease it renews; chunks and
-- forwards on their way name the worker that sent them, so the others know whose are
-- cut off when a lease runs out.
CREATE TABLE workers (
	id TEXT PRIMARY KEY,
	host TEXT NOT NULL,
	pid INTEGER NOT NULL,
	started_at BIGINT NOT NULL,
	heartbeat_at BIGINT NOT NULL
);
ALTER TABLE submissions ADD COLUMN worker TEXT;
CREATE INDEX submissions_by_worker ON submissions (worker) WHERE worker IS NOT NULL;
ALTER TABLE forwards ADD COLUMN worker TEXT;
-- A chunk's number comes from here when several workers number chunks of one run.
CREATE SEQUENCE chunk_numbers;
-- A campaign's rate across every worker: the moment (Unix ms, Postgres's clock) its next
-- request may leave; each request takes its slot and moves it on.
CREATE TABLE pacing (
	campaign TEXT PRIMARY KEY,
	next_at DOUBLE PRECISION NOT NULL
);
`,
	},
	{
		version: 3,
		sql: `
-- Unix milliseconds the request that may have carried a row left, while the row is
-- uncertain and once a receipt has shown it was sent: the send time the report gives a
-- message whose answer was lost (its sent_at is then this). NULL otherwise.
ALTER TABLE recipients ADD COLUMN attempted_at BIGINT;
CREATE INDEX recipients_attempted ON recipients (campaign) WHERE attempted_at IS NOT NULL;
`,
	},
	{
		version: 4,
		sql: `
-- What an import had read of its CSV: a resume compares the file with it, so an edited
-- list never shifts the lines under the import mark.
ALTER TABLE campaigns ADD COLUMN input_bytes BIGINT;
ALTER TABLE campaigns ADD COLUMN input_hash TEXT;
ALTER TABLE campaigns ADD COLUMN input_size BIGINT;
ALTER TABLE campaigns ADD COLUMN input_mtime BIGINT;
`,
	},
	{
		version: 5,
		sql: `
-- Every opt-out and opt-in, with its time: \`contact show\` tells a number's consent trail;
-- the suppression list holds only where it stands now.
CREATE TABLE consent_events (
	number TEXT NOT NULL,
	at BIGINT NOT NULL,
	kind TEXT NOT NULL,
	reason TEXT NOT NULL
);
CREATE INDEX consent_events_by_number ON consent_events (number);
`,
	},
	{
		version: 6,
		sql: `
-- Campaigns made through the worker's API (/api/campaigns) and their recipients, in pages
-- kept here so that any worker on this database can run them.
CREATE TABLE api_campaigns (
	name TEXT PRIMARY KEY,
	settings TEXT NOT NULL,
	state TEXT NOT NULL,
	source TEXT,
	csv_hash TEXT,
	created_at BIGINT NOT NULL,
	started_at BIGINT,
	finished_at BIGINT,
	reason TEXT,
	updated_at BIGINT NOT NULL
);
CREATE TABLE api_pages (
	campaign TEXT NOT NULL,
	page INTEGER NOT NULL,
	hash TEXT NOT NULL,
	recipients INTEGER NOT NULL,
	columns TEXT NOT NULL,
	body TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (campaign, page)
);
`,
	},
	{
		version: 7,
		sql: `
-- One data model with SQLite's: a chunk on its way is a submission, a range of lines whose
-- pending rows are submitting (no status nor chunk written on each row, twice per send);
-- an answer's MessageSids are one row of answers per chunk, indexed by MessageSid in
-- message_sids when a receipt needs it; the time a receipt's message was sent is on the
-- receipt. Rows on their way become pending inside their chunk's range.
ALTER TABLE submissions RENAME COLUMN created_at TO at;
ALTER TABLE submissions ADD COLUMN first INTEGER;
ALTER TABLE submissions ADD COLUMN last INTEGER;
UPDATE submissions s SET first = r.first, last = r.last
	FROM (SELECT campaign, chunk, MIN(line) AS first, MAX(line) AS last FROM recipients WHERE status = 'submitting' GROUP BY campaign, chunk) r
	WHERE r.campaign = s.campaign AND r.chunk = s.chunk;
DELETE FROM submissions WHERE first IS NULL;
ALTER TABLE submissions ALTER COLUMN first SET NOT NULL, ALTER COLUMN last SET NOT NULL;
UPDATE recipients SET status = 'pending' WHERE status = 'submitting';
CREATE TABLE answers (
	id BIGSERIAL PRIMARY KEY,
	campaign TEXT NOT NULL,
	first INTEGER NOT NULL,
	last INTEGER NOT NULL,
	-- JSON [[line, MessageSid], ...] in line order.
	sids TEXT NOT NULL,
	-- Unix milliseconds the answer was stored: when its messages were sent, for the report.
	at BIGINT
);
CREATE INDEX answers_by_line ON answers (campaign, first);
CREATE TABLE message_sids (
	message_sid TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL
);
-- 'sids_indexed_through': the last answer copied into message_sids.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
ALTER TABLE deliveries ADD COLUMN sent_at BIGINT;
UPDATE deliveries d SET sent_at = r.sent_at FROM recipients r WHERE r.campaign = d.campaign AND r.line = d.line AND r.sent_at IS NOT NULL;
INSERT INTO message_sids (message_sid, campaign, line)
	SELECT message_sid, campaign, line FROM recipients WHERE message_sid IS NOT NULL ORDER BY message_sid ON CONFLICT DO NOTHING;
-- Rows accepted by an answer: their MessageSids move into one answer per campaign and moment
-- stored. Rows accepted by their receipt keep theirs, as in SQLite.
INSERT INTO answers (campaign, first, last, sids, at)
	SELECT campaign, MIN(line), MAX(line), json_agg(json_build_array(line, message_sid) ORDER BY line)::text, sent_at
	FROM recipients WHERE status = 'accepted' AND message_sid IS NOT NULL AND attempted_at IS NULL GROUP BY campaign, sent_at ORDER BY campaign, MIN(line);
UPDATE recipients SET message_sid = NULL WHERE status = 'accepted' AND message_sid IS NOT NULL AND attempted_at IS NULL;
INSERT INTO meta (key, value) SELECT 'sids_indexed_through', COALESCE(MAX(id), 0)::text FROM answers;
DROP INDEX recipients_submitting;
DROP INDEX recipients_by_message_sid;
ALTER TABLE recipients DROP COLUMN chunk, DROP COLUMN sent_at;
`,
	},
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
