import { INSERT_CAMPAIGN } from './ledgerSql';

/**
 * The statements of the API campaigns' tables (schema.ts), written once in Postgres's
 * dialect for both backends (SqlDb).
 */

/** `state` among a comma-separated list: one parameter, the same text on both backends. */
const IN_STATES = (param: string) => `(',' || ${param} || ',' LIKE '%,' || state || ',%')`;

/** No cancel is left for a run to settle (the ledger's, guardSql.ts): it lives in the same database. */
const NO_CANCEL = `NOT EXISTS (SELECT 1 FROM meta WHERE meta.key = 'cancelled-by:' || api_campaigns.name)`;
/**
 * Paused in its ledger campaign (where every pause is written), by a person or a guardrail
 * that stopped the run; one the daily spend cap paused is not: its run waits for the next
 * day, and goes on at the worker's next start.
 */
const LEDGER_PAUSED = `EXISTS (SELECT 1 FROM campaigns c WHERE c.name = api_campaigns.name AND c.paused = true
	AND NOT EXISTS (SELECT 1 FROM meta m WHERE m.key = 'paused-by:' || c.name AND m.value LIKE '%"by":"daily-spend-cap"%'))`;

const COLUMNS =
	'name, settings, state, source, csv_hash, created_at, started_at, finished_at, reason';

export const API_CAMPAIGN_SQL = {
	insert: `INSERT INTO api_campaigns (name, settings, state, created_at, updated_at) VALUES ($1, $2, 'draft', $3, $3) ON CONFLICT (name) DO NOTHING`,
	campaign: `SELECT ${COLUMNS} FROM api_campaigns WHERE name = $1`,
	list: 'SELECT name, state FROM api_campaigns ORDER BY name',
	/**
	 * Takes a draft for a page (or a CSV): the first step of the write that stores it, so a
	 * start (an update of the same row) comes wholly before or after; 0 rows when the
	 * campaign is missing, started, or has its recipients the other way.
	 */
	takeForPages: `UPDATE api_campaigns SET source = 'pages', updated_at = $2 WHERE name = $1 AND state = 'draft' AND (source IS NULL OR source = 'pages')`,
	/** The same for a CSV, only while none is stored. */
	takeForCsv: `UPDATE api_campaigns SET source = 'csv', csv_hash = $2, updated_at = $3 WHERE name = $1 AND state = 'draft' AND source IS NULL`,
	insertPage:
		'INSERT INTO api_pages (campaign, page, hash, recipients, columns, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (campaign, page) DO NOTHING',
	pageHash: 'SELECT hash FROM api_pages WHERE campaign = $1 AND page = $2',
	totals:
		'SELECT COUNT(*) AS pages, COALESCE(SUM(recipients), 0) AS recipients FROM api_pages WHERE campaign = $1',
	pageNumbers: 'SELECT page FROM api_pages WHERE campaign = $1 ORDER BY page',
	pageColumns: 'SELECT columns FROM api_pages WHERE campaign = $1 ORDER BY page',
	dropPages: 'DELETE FROM api_pages WHERE campaign = $1',
	rewritePage: 'UPDATE api_pages SET body = $3 WHERE campaign = $1 AND page = $2',
	pagesAfter:
		'SELECT page, body FROM api_pages WHERE campaign = $1 AND page > $2 ORDER BY page LIMIT $3',
	start: `UPDATE api_campaigns SET state = 'started', started_at = $2, updated_at = $2 WHERE name = $1 AND state = 'draft'`,
	// Finished, the reason is the one given or none: a passing fault's is not kept.
	end: `UPDATE api_campaigns SET state = $1, updated_at = $2, finished_at = $2,
		reason = CASE WHEN $1 = 'finished' THEN $3 ELSE COALESCE($3, reason) END
		WHERE name = $4 AND ${IN_STATES('$5')}`,
	/** Settings changed after the create (a raised maxCost): only while it is a draft or paused, not under a run nor its cancel. */
	changeSettings: `UPDATE api_campaigns SET settings = $2, updated_at = $3 WHERE name = $1
		AND (state = 'draft' OR (state = 'started' AND ${LEDGER_PAUSED})) AND ${NO_CANCEL}`,
	endedBefore: `SELECT name FROM api_campaigns WHERE state IN ('finished', 'cancelled', 'failed') AND finished_at < $1 ORDER BY finished_at, name`,
	removeEnded: `DELETE FROM api_campaigns WHERE name = $1 AND state IN ('finished', 'cancelled', 'failed')`,
	/** A draft only: a start (an update of the same row) comes wholly before or after. */
	removeDraft: `DELETE FROM api_campaigns WHERE name = $1 AND state = 'draft'`,
	inStates: `SELECT ${COLUMNS} FROM api_campaigns WHERE ${IN_STATES('$1')} ORDER BY created_at, name`,
	toRun: `SELECT ${COLUMNS} FROM api_campaigns
		WHERE state = 'started' AND (NOT ${LEDGER_PAUSED} OR NOT ${NO_CANCEL}) ORDER BY created_at, name`,
	/**
	 * A start's ledger campaign, made in the write that starts it: from then on the ledger
	 * alone holds its pause, cancel and phase, whoever asks (the API, the CLI, the dashboard).
	 */
	insertLedgerCampaign: INSERT_CAMPAIGN,
	/** A person's pause of a started campaign. The guardrail's note goes: it is a person's pause now, as ledger.setPaused has it. */
	pause: `UPDATE campaigns SET paused = true, updated_at = $2 WHERE name = $1 AND paused = false
		AND EXISTS (SELECT 1 FROM api_campaigns a WHERE a.name = $1 AND a.state = 'started')`,
	forgetPausedBy: `DELETE FROM meta WHERE key = 'paused-by:' || $1 AND EXISTS (SELECT 1 FROM api_campaigns a WHERE a.name = $1 AND a.state = 'started')`,
	resume: `UPDATE campaigns SET paused = false, updated_at = $2 WHERE name = $1 AND paused = true`,
	/** A started campaign's passing fault, said while it waits to go again; NULL once it goes. */
	setReason: `UPDATE api_campaigns SET reason = $3, updated_at = $2 WHERE name = $1 AND state = 'started'`,
} as const;

export type ApiCampaignStatement = keyof typeof API_CAMPAIGN_SQL;
