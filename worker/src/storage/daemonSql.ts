/**
 * The daemon's statements that SQLite and Postgres both run, written once in Postgres's
 * dialect: `$n` placeholders (SQLite reads `$1` as a named parameter, bound by
 * `sqliteParams`) and `ON CONFLICT ... DO NOTHING` (SQLite has it since 3.24). Each aggregate
 * is named, so a row reads the same on both. What only one backend does (SQLite's claim in
 * a transaction, Postgres's SKIP LOCKED claim, batch inserts and worker leases) stays in
 * its adapter, sqlite/sqliteDaemonStore.ts or postgres/pgDaemonStore.ts.
 */
export const DAEMON_SQL = {
	insertEvent: 'INSERT INTO callback_events (event_key, kind, payload, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT (event_key) DO NOTHING',
	unprocessed: 'SELECT event_key, payload, received_at FROM callback_events WHERE processed_at IS NULL ORDER BY received_at LIMIT $1',
	waiting: 'SELECT COUNT(*) AS n FROM callback_events WHERE processed_at IS NULL',
	nextDue: `SELECT MIN(next_at) AS at FROM forwards WHERE state = 'pending'`,
	sent: `UPDATE forwards SET state = 'sent', last_error = NULL, updated_at = $1 WHERE id = $2`,
	retry: `UPDATE forwards SET state = 'pending', next_at = $1, last_error = $2, updated_at = $3 WHERE id = $4`,
	settle: 'UPDATE forwards SET state = $1, last_error = $2, updated_at = $3 WHERE id = $4',
	counts: 'SELECT state, COUNT(*) AS n FROM forwards GROUP BY state',
	all: 'SELECT * FROM forwards ORDER BY id',
	startRun: 'INSERT INTO campaign_runs (run, campaign, started_at) VALUES ($1, $2, $3) ON CONFLICT (run) DO NOTHING',
	finishRun: 'UPDATE campaign_runs SET finished_at = $1, outcome = $2 WHERE run = $3',
	finishOpenRun: 'UPDATE campaign_runs SET finished_at = $1, outcome = $2 WHERE run = $3 AND finished_at IS NULL',
	queueForward: `INSERT INTO forwards (event_key, action_key, kind, payload, state, next_at, created_at, updated_at) VALUES ($1, $2, $3, $4, 'pending', $5, $5, $5) ON CONFLICT (event_key, action_key) DO NOTHING`,
	unfinishedRuns: 'SELECT run, campaign, started_at FROM campaign_runs WHERE finished_at IS NULL ORDER BY started_at',
	runsSince: 'SELECT run FROM campaign_runs WHERE campaign = $1 AND started_at >= $2',
	firstRun: 'SELECT MIN(started_at) AS at FROM campaign_runs WHERE campaign = $1',
	finishedRunsBefore: 'SELECT run FROM campaign_runs WHERE finished_at < $1 ORDER BY finished_at',
	pruneEvents: 'DELETE FROM callback_events WHERE processed_at IS NOT NULL AND received_at < $1',
	pruneForwards: `DELETE FROM forwards WHERE state IN ('sent', 'failed', 'uncertain') AND updated_at < $1`,
	pruneRuns: 'DELETE FROM campaign_runs WHERE finished_at < $1',
} as const;

export type DaemonStatement = keyof typeof DAEMON_SQL;

/** Positional arguments as the named parameters `$1`, `$2`... better-sqlite3 binds. */
export function sqliteParams(args: readonly unknown[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	args.forEach((v, i) => (out[i + 1] = v));
	return out;
}
