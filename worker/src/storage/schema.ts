import { linkTablesSql } from './linkSchema';
import type { Dialect } from './work';

/**
 * The version the tables below stand for, on both backends: a new SQLite file or Postgres
 * database is made at it directly; one a release made is moved to it by schemaUpgrades.ts.
 */
export const SCHEMA_VERSION = 14;

/**
 * Every table of the worker (ledger, daemon, API campaigns), written once and rendered per
 * backend: only types, the row layout and what several workers sharing Postgres need
 * differ. `keepExisting`: an upgrade step makes only what an older file lacks; otherwise a
 * table of the same name (another program's, in a database it was never meant to share) is
 * an error, not silently taken for cloudtel's.
 */
export function schemaSql(d: Dialect, keepExisting = false): string {
	const pg = d.name === 'postgres';
	const IF_ABSENT = keepExisting ? 'IF NOT EXISTS ' : '';
	// SQLite's INTEGER is 64 bits already; Unix milliseconds overflow Postgres's.
	const BIG = pg ? 'BIGINT' : 'INTEGER';
	const BOOL = pg ? 'BOOLEAN' : 'INTEGER';
	const FALSE = pg ? 'false' : '0';
	const ID = pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY';
	// SQLite keeps a table with a primary key of its own in that key's order: one b-tree, not two.
	const KEYED = pg ? '' : ' WITHOUT ROWID';
	return `
-- The versions applied. SQLite's meta 'schema' keeps the last too: releases before this
-- table read it to refuse a newer file.
CREATE TABLE ${IF_ABSENT}cloudtel_schema (version INTEGER PRIMARY KEY, applied_at ${BIG} NOT NULL);
-- 'sids_indexed_through': the last answer copied into message_sids.
CREATE TABLE ${IF_ABSENT}meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ${IF_ABSENT}campaigns (
	name TEXT PRIMARY KEY,
	spec TEXT NOT NULL,
	phase TEXT NOT NULL,
	paused ${BOOL} NOT NULL DEFAULT ${FALSE},
	imported_through INTEGER NOT NULL DEFAULT 0,
	created_at ${BIG} NOT NULL,
	updated_at ${BIG} NOT NULL,
	owner_pid INTEGER,
	owner_host TEXT,
	owner_token TEXT,
	heartbeat_at ${BIG},
	-- What the import had read of its CSV: a resume compares the file with it, so an edited
	-- list never shifts the lines under the import mark.
	input_bytes ${BIG},
	input_hash TEXT,
	input_size ${BIG},
	input_mtime ${BIG}
);
CREATE TABLE ${IF_ABSENT}recipients (
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
	-- Unix milliseconds the request that may have carried it left, while it is uncertain and
	-- once a receipt has shown it was sent: the send time the report gives a message whose
	-- answer was lost. NULL otherwise.
	attempted_at ${BIG},
	-- A variant campaign's text the row was sent with (1 is --text); NULL while held, and in
	-- a campaign of one text.
	variant INTEGER,
	PRIMARY KEY (campaign, line)
)${KEYED};
${recipientsByNumberSql(IF_ABSENT)}
-- The report finds the few rows timed from their request without a scan of the campaign.
CREATE INDEX ${IF_ABSENT}recipients_attempted ON recipients (campaign, attempted_at) WHERE attempted_at IS NOT NULL;
-- A chunk whose request may be on its way: its pending rows between first and last are
-- "submitting". One row per chunk, not a status written on each of its rows: marking and
-- settling each row moved it in a status index twice, and that was most of the worker's
-- time per message. Rows are read in line order from the primary key instead.
CREATE TABLE ${IF_ABSENT}submissions (
	campaign TEXT NOT NULL,
	chunk ${BIG} NOT NULL,
	first INTEGER NOT NULL,
	last INTEGER NOT NULL,
	-- Unix milliseconds it was marked, just before its request left.
	at ${BIG},
	-- The worker that sent it: where several share a database, the others know whose chunks
	-- are cut off when its lease runs out.
	worker TEXT,
	PRIMARY KEY (campaign, chunk)
)${KEYED};
CREATE INDEX ${IF_ABSENT}submissions_by_worker ON submissions (worker) WHERE worker IS NOT NULL;
CREATE TABLE ${IF_ABSENT}deliveries (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	message_sid TEXT NOT NULL,
	status TEXT NOT NULL,
	error_code TEXT,
	-- The receipt's Timestamp, Unix seconds (the provider's clock).
	at ${BIG} NOT NULL,
	-- Unix milliseconds the worker received it: with answers.at, the time from send to
	-- receipt to better than the Timestamp's second.
	received_at ${BIG},
	-- Unix milliseconds of the answer that accepted the message, copied when the receipt is
	-- stored, so the report's time to receipt is one scan, not a look-up per receipt. NULL
	-- when the receipt came before the answer.
	sent_at ${BIG},
	PRIMARY KEY (campaign, line)
)${KEYED};
-- The report's failures (by ErrorCode, by country) without a scan of every receipt.
CREATE INDEX ${IF_ABSENT}deliveries_by_status ON deliveries (campaign, status, error_code);
-- The MessageSids of a chunk's accepted messages, in one row per answer: JSON
-- [[line, MessageSid], ...] in line order. Not a column written on each row: an UPDATE per
-- row, each growing its row, was the largest cost of storing an answer. The rows' status is
-- still written on each row, in one statement per chunk.
CREATE TABLE ${IF_ABSENT}answers (
	id ${ID},
	campaign TEXT NOT NULL,
	first INTEGER NOT NULL,
	last INTEGER NOT NULL,
	sids TEXT NOT NULL,
	-- Unix milliseconds the answer was stored: when its messages were sent, for the report
	-- (sends over time, time to receipt).
	at ${BIG}
);
CREATE INDEX ${IF_ABSENT}answers_by_line ON answers (campaign, first);
-- MessageSid -> row: a receipt changes the row that sent its MessageSid, whatever its
-- ExternalId says (anyone can write one), and a START must answer a message sent to its
-- number. Built from answers when a receipt or a reply needs it.
CREATE TABLE ${IF_ABSENT}message_sids (
	message_sid TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL
)${KEYED};
-- Replies to a campaign's messages, by the row their ExternalId names: the report's
-- replied and opted-out counts. One row per inbound MessageSid, so a reply stored twice
-- (by two workers) counts once.
CREATE TABLE ${IF_ABSENT}replies (
	campaign TEXT NOT NULL,
	line INTEGER NOT NULL,
	message_sid TEXT NOT NULL,
	at ${BIG} NOT NULL,
	opt_out ${BOOL} NOT NULL,
	PRIMARY KEY (campaign, line, message_sid)
)${KEYED};
${variantDecisionsSql(IF_ABSENT, BIG, BOOL)}
CREATE TABLE ${IF_ABSENT}suppressions (
	number TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	created_at ${BIG} NOT NULL
)${KEYED};
-- Every opt-out and opt-in, with its time: \`contact show\` tells a number's consent trail;
-- the suppression list holds only where it stands now.
CREATE TABLE ${IF_ABSENT}consent_events (
	number TEXT NOT NULL,
	at ${BIG} NOT NULL,
	kind TEXT NOT NULL,
	reason TEXT NOT NULL
);
CREATE INDEX ${IF_ABSENT}consent_events_by_number ON consent_events (number);
-- The daemon's callbacks, outbox and runs: everything a restart needs, beside the ledger.
CREATE TABLE ${IF_ABSENT}callback_events (
	event_key TEXT PRIMARY KEY,
	kind TEXT NOT NULL,
	payload TEXT NOT NULL,
	received_at ${BIG} NOT NULL,
	processed_at ${BIG}
)${KEYED};
CREATE INDEX ${IF_ABSENT}callback_events_unprocessed ON callback_events (received_at) WHERE processed_at IS NULL;
CREATE TABLE ${IF_ABSENT}forwards (
	-- AUTOINCREMENT on SQLite, as a sequence on Postgres: a pruned forward's number is never
	-- given to a new one.
	id ${ID}${pg ? '' : ' AUTOINCREMENT'},
	event_key TEXT NOT NULL,
	action_key TEXT NOT NULL,
	kind TEXT NOT NULL,
	payload TEXT NOT NULL,
	state TEXT NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at ${BIG} NOT NULL,
	last_error TEXT,
	created_at ${BIG} NOT NULL,
	updated_at ${BIG} NOT NULL,
	-- The worker attempting it, where several share a database.
	worker TEXT,
	UNIQUE (event_key, action_key)
);
CREATE INDEX ${IF_ABSENT}forwards_due ON forwards (next_at, id) WHERE state = 'pending';
CREATE TABLE ${IF_ABSENT}campaign_runs (
	run TEXT PRIMARY KEY,
	campaign TEXT NOT NULL,
	started_at ${BIG} NOT NULL,
	finished_at ${BIG},
	outcome TEXT
)${KEYED};
-- Campaigns made through the worker's API (/api/campaigns) and their recipients, in pages
-- kept here so that any worker on this database can run them.
CREATE TABLE ${IF_ABSENT}api_campaigns (
	name TEXT PRIMARY KEY,
	settings TEXT NOT NULL,
	state TEXT NOT NULL,
	source TEXT,
	csv_hash TEXT,
	created_at ${BIG} NOT NULL,
	started_at ${BIG},
	finished_at ${BIG},
	reason TEXT,
	updated_at ${BIG} NOT NULL
)${KEYED};
CREATE TABLE ${IF_ABSENT}api_pages (
	campaign TEXT NOT NULL,
	page INTEGER NOT NULL,
	hash TEXT NOT NULL,
	recipients INTEGER NOT NULL,
	columns TEXT NOT NULL,
	body TEXT NOT NULL,
	created_at ${BIG} NOT NULL,
	PRIMARY KEY (campaign, page)
)${KEYED};
${linkTablesSql(pg, IF_ABSENT)}
${pg ? sharedOnly(IF_ABSENT) : ''}`;
}

/**
 * What only a database several workers share needs; a SQLite file has one worker.
 * Postgres reads a heap table in no order, and moves a row between partial indexes
 * cheaply: pending rows are found through their own index, not the primary key.
 */
const sharedOnly = (IF_ABSENT: string) => `
CREATE INDEX ${IF_ABSENT}recipients_pending ON recipients (campaign, line) WHERE status = 'pending';
-- Each live worker holds a lease it renews.
CREATE TABLE ${IF_ABSENT}workers (
	id TEXT PRIMARY KEY,
	host TEXT NOT NULL,
	pid INTEGER NOT NULL,
	started_at BIGINT NOT NULL,
	heartbeat_at BIGINT NOT NULL
);
-- A chunk's number comes from here when several workers number chunks of one run.
CREATE SEQUENCE ${IF_ABSENT}chunk_numbers;
-- A campaign's rate across every worker: the moment (Unix ms, Postgres's clock) its next
-- request may leave; each request takes its slot and moves it on.
CREATE TABLE ${IF_ABSENT}pacing (
	campaign TEXT PRIMARY KEY,
	next_at DOUBLE PRECISION NOT NULL
);
`;

/** A variant campaign's winner, written once (schema 9); the held rows take its text in the same transaction. */
export const variantDecisionsSql = (IF_ABSENT: string, BIG: string, BOOL: string) => `
CREATE TABLE ${IF_ABSENT}variant_decisions (
	campaign TEXT PRIMARY KEY,
	winner INTEGER NOT NULL,
	-- delivered, replies, clicks or optouts; the rates, JSON, one per variant, of that measure.
	winner_by TEXT NOT NULL,
	rates TEXT NOT NULL,
	by_hand ${BOOL} NOT NULL,
	decided_at ${BIG} NOT NULL
);`;

/** A number's messages across campaigns (schema 11): the frequency cap counts them before each send. */
export const recipientsByNumberSql = (IF_ABSENT: string) =>
	`CREATE INDEX ${IF_ABSENT}recipients_by_number ON recipients (to_number);`;
