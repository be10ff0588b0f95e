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
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
