import { RECIPIENTS, type CampaignSpec } from '../settings/campaignSpec';
import { CANCELLED_BY_KEY } from './guardSql';
import { INSERT_CAMPAIGN } from './ledgerSql';
import { linkTablesSql } from './linkSchema';
import { recipientsByNumberSql, schemaSql, variantDecisionsSql } from './schema';

import { SQLITE, all, run, type Dialect, type Work } from './work';

/** A numbered step from the version before it; each runs in the transaction that records it. */
export interface SchemaStep {
	version: number;
	work: () => Work<unknown>;
}

/** A column an older table lacks; none where the file has no such table yet (schemaSql makes it whole). */
function* addColumn(table: string, column: string, type: string): Work<void> {
	const columns = yield* all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`);
	if (columns.length > 0 && !columns.some((c) => c.name === column))
		yield* run(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}

/**
 * Schema 12, both backends: a cancel a run held is the ledger's alone (its phase and
 * CancelledBy), no longer an API campaign's `cancelling`. Such a campaign is started again
 * with its reason and time in the ledger, so the next worker finishes the cancel and
 * announces it; one with no ledger campaign (never the case: its run had made it) ends here.
 */
function* cancelsToLedger(): Work<void> {
	const asked = yield* all<{ name: string; reason: string | null; at: number | string }>(
		`SELECT name, reason, COALESCE(finished_at, updated_at) AS at FROM api_campaigns WHERE state = 'cancelling'`,
	);
	for (const a of asked) {
		const held = yield* run(`UPDATE campaigns SET phase = 'cancelled' WHERE name = $1`, a.name);
		if (held > 0)
			yield* run(
				'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
				CANCELLED_BY_KEY + a.name,
				JSON.stringify({ reason: a.reason ?? 'cancelled', at: Number(a.at) }),
			);
		else yield* run('DELETE FROM api_pages WHERE campaign = $1', a.name);
		yield* run(
			'UPDATE api_campaigns SET state = $2 WHERE name = $1',
			a.name,
			held > 0 ? 'started' : 'cancelled',
		);
	}
}

/**
 * Schema 13, both backends: a pause is the ledger's once the run has made its campaign (the
 * record holds one only before): an API campaign paused then is started again, its ledger
 * campaign paused (as it was already, unless a resume was cut off between its two writes).
 */
function* pausesToLedger(): Work<void> {
	yield* run(
		`UPDATE campaigns SET paused = true WHERE name IN (SELECT name FROM api_campaigns WHERE state = 'paused')`,
	);
	yield* run(
		`UPDATE api_campaigns SET state = 'started' WHERE state = 'paused' AND EXISTS (SELECT 1 FROM campaigns c WHERE c.name = api_campaigns.name)`,
	);
}

/**
 * Schema 14, both backends: every started API campaign is in the ledger (a start makes its
 * campaign there), which alone holds its pause. One whose run had not made it yet gets it
 * now, paused if its record was: a spec of its settings' essentials, which its first run
 * replaces with the whole one (nothing was sent from it).
 */
function* startedToLedger(): Work<void> {
	const waiting = yield* all<{
		name: string;
		settings: string;
		state: string;
		at: number | string;
	}>(
		`SELECT name, settings, state, COALESCE(started_at, created_at) AS at FROM api_campaigns a
		WHERE state IN ('started', 'paused') AND NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.name = a.name)`,
	);
	for (const a of waiting) {
		const settings = JSON.parse(a.settings) as {
			property: string;
			text: string;
			receipts?: boolean;
		};
		const spec: CampaignSpec = {
			name: a.name,
			csvPath: RECIPIENTS,
			propertySid: settings.property,
			text: settings.text,
			...(settings.receipts !== false ? { receipts: true } : {}),
		};
		yield* run(INSERT_CAMPAIGN, a.name, JSON.stringify(spec), Number(a.at));
		if (a.state === 'paused')
			yield* run('UPDATE campaigns SET paused = true WHERE name = $1', a.name);
	}
	yield* run(`UPDATE api_campaigns SET state = 'started' WHERE state = 'paused'`);
}

/**
 * The steps from the schema each backend's release left (the first published: SQLite
 * files at 7, Postgres databases at 5) to schema.ts's. Anything older was a development
 * build's and is refused (migrateSchema.ts), so no step starts below the release. Append;
 * never edit one that has shipped.
 */
export const UPGRADES: Record<Dialect['name'], { release: number; steps: readonly SchemaStep[] }> =
	{
		sqlite: {
			release: 7,
			steps: [
				{
					version: 8,
					// The one data model with Postgres: the worker that sent a chunk or attempts a
					// forward; the daemon's indexes as Postgres's (partial: only what is due); the
					// daemon's and API campaigns' tables, where the file has none yet. Release files
					// keep recipients.chunk, unused since schema 3, rather than be rewritten. What is
					// missing is made as schema.ts has it now, so a later step must expect its tables
					// in either form (as addColumn does).
					*work() {
						yield* run(
							'DROP INDEX IF EXISTS callback_events_unprocessed; DROP INDEX IF EXISTS forwards_due;',
						);
						yield* addColumn('submissions', 'worker', 'TEXT');
						yield* addColumn('forwards', 'worker', 'TEXT');
						yield* run(schemaSql(SQLITE, true));
					},
				},
				// Tracked links and their clicks (step 8 made them already in a file it upgraded).
				{ version: 9, work: () => run(linkTablesSql(false, 'IF NOT EXISTS ')) },
				{
					version: 10,
					// Variant campaigns: each row's variant, and the decision.
					*work() {
						yield* addColumn('recipients', 'variant', 'INTEGER');
						yield* run(variantDecisionsSql('IF NOT EXISTS ', 'INTEGER', 'INTEGER'));
					},
				},
				// The frequency cap: a number's messages across campaigns.
				{ version: 11, work: () => run(recipientsByNumberSql('IF NOT EXISTS ')) },
				{ version: 12, work: cancelsToLedger },
				{ version: 13, work: pausesToLedger },
				{ version: 14, work: startedToLedger },
			],
		},
		postgres: {
			release: 5,
			steps: [
				{
					version: 6,
					work: () =>
						run(`
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
`),
				},
				{
					version: 7,
					work: () =>
						run(`
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
`),
				},
				{
					version: 8,
					// The one data model with SQLite's (schema.ts): the indexes and the nullable send
					// time it has.
					work: () =>
						run(`
CREATE INDEX deliveries_by_status ON deliveries (campaign, status, error_code);
DROP INDEX recipients_attempted;
CREATE INDEX recipients_attempted ON recipients (campaign, attempted_at) WHERE attempted_at IS NOT NULL;
ALTER TABLE submissions ALTER COLUMN at DROP NOT NULL;
`),
				},
				// Tracked links and their clicks.
				{ version: 9, work: () => run(linkTablesSql(true, '')) },
				{
					version: 10,
					// Variant campaigns: each row's variant, and the decision.
					work: () =>
						run(
							`ALTER TABLE recipients ADD COLUMN variant INTEGER;${variantDecisionsSql('', 'BIGINT', 'BOOLEAN')}`,
						),
				},
				{ version: 11, work: () => run(recipientsByNumberSql('')) },
				{ version: 12, work: cancelsToLedger },
				{ version: 13, work: pausesToLedger },
				{ version: 14, work: startedToLedger },
			],
		},
	};
