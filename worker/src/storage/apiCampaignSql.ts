/**
 * The API campaigns' tables in SQLite (the Postgres ones are migration 6 of
 * store/pgMigrations.ts, the same columns), and the statements both backends run, written
 * once in Postgres's dialect as daemonSql.ts's are. What differs (the row lock that
 * orders a page against a start: SQLite's write transaction, Postgres's FOR UPDATE)
 * stays in each adapter.
 */
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


/** `state` among a comma-separated list: one parameter, the same text on both backends. */
const IN_STATES = (param: string) => `(',' || ${param} || ',' LIKE '%,' || state || ',%')`;

const COLUMNS = 'name, settings, state, source, csv_hash, created_at, started_at, finished_at, reason';

export const API_CAMPAIGN_SQL = {
	insert: `INSERT INTO api_campaigns (name, settings, state, created_at, updated_at) VALUES ($1, $2, 'draft', $3, $3) ON CONFLICT (name) DO NOTHING`,
	campaign: `SELECT ${COLUMNS} FROM api_campaigns WHERE name = $1`,
	list: 'SELECT name, state FROM api_campaigns ORDER BY name',
	insertPage: 'INSERT INTO api_pages (campaign, page, hash, recipients, columns, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (campaign, page) DO NOTHING',
	pageHash: 'SELECT hash FROM api_pages WHERE campaign = $1 AND page = $2',
	setSource: 'UPDATE api_campaigns SET source = $1, csv_hash = $2, updated_at = $3 WHERE name = $4',
	totals: 'SELECT COUNT(*) AS pages, COALESCE(SUM(recipients), 0) AS recipients FROM api_pages WHERE campaign = $1',
	pageNumbers: 'SELECT page FROM api_pages WHERE campaign = $1 ORDER BY page',
	pageColumns: 'SELECT columns FROM api_pages WHERE campaign = $1 ORDER BY page',
	pagesAfter: 'SELECT page, body FROM api_pages WHERE campaign = $1 AND page > $2 ORDER BY page LIMIT $3',
	// The start time is the first start's; the finish time each final state's.
	transition: `UPDATE api_campaigns SET state = $1, updated_at = $2,
		started_at = CASE WHEN $1 = 'started' AND started_at IS NULL THEN $2 ELSE started_at END,
		finished_at = CASE WHEN $1 IN ('finished', 'cancelled', 'failed') THEN $2 ELSE finished_at END,
		reason = COALESCE($3, reason)
		WHERE name = $4 AND ${IN_STATES('$5')}`,
	inStates: `SELECT ${COLUMNS} FROM api_campaigns WHERE ${IN_STATES('$1')} ORDER BY created_at, name`,
} as const;

export type ApiCampaignStatement = keyof typeof API_CAMPAIGN_SQL;
