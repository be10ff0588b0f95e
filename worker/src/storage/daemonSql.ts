import type { KeyedForward } from './daemonStore';
import type { Dialect, Step, Write } from './work';

/**
 * The daemon's statements, written once in Postgres's dialect and rendered per backend.
 * What differs is where several workers share Postgres: a forward names the worker
 * attempting it, a claim skips rows another worker has locked, and only a forward whose
 * worker's lease is gone (see PgCluster) counts as cut off mid-attempt. Each aggregate is
 * named, so a row reads the same on both.
 */
export function daemonSql(dialect: Dialect) {
	const shared = dialect.name === 'postgres';
	const orphaned = shared
		? ' AND (worker IS NULL OR NOT EXISTS (SELECT 1 FROM workers w WHERE w.id = forwards.worker))'
		: '';
	return {
		insertEvent:
			'INSERT INTO callback_events (event_key, kind, payload, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT (event_key) DO NOTHING',
		unprocessed:
			'SELECT event_key, payload, received_at FROM callback_events WHERE processed_at IS NULL ORDER BY received_at LIMIT $1',
		waiting: 'SELECT COUNT(*) AS n FROM callback_events WHERE processed_at IS NULL',
		// `WHERE true`: SQLite reads an ON CONFLICT after INSERT ... SELECT only behind a WHERE.
		insertForwards: `INSERT INTO forwards (event_key, action_key, kind, payload, state, next_at, created_at, updated_at)
			SELECT j.value->>0, j.value->>1, j.value->>2, j.value->>3, 'pending', $2, $2, $2 FROM ${dialect.jsonRows('$1', 'j')} WHERE true
			ON CONFLICT (event_key, action_key) DO NOTHING`,
		processed: `UPDATE callback_events SET processed_at = $2 WHERE event_key IN (SELECT j.value->>0 FROM ${dialect.jsonRows('$1', 'j')})`,
		claim: `UPDATE forwards SET state = 'sending', attempts = attempts + 1, updated_at = $1${shared ? ', worker = $2' : ''}
			WHERE id IN (SELECT id FROM forwards WHERE state = 'pending' AND next_at <= $3 ORDER BY next_at, id LIMIT $4${shared ? ' FOR UPDATE SKIP LOCKED' : ''})
			RETURNING *`,
		nextDue: `SELECT MIN(next_at) AS at FROM forwards WHERE state = 'pending'`,
		sent: `UPDATE forwards SET state = 'sent', last_error = NULL, updated_at = $1 WHERE id = $2`,
		retry: `UPDATE forwards SET state = 'pending', next_at = $1, last_error = $2, updated_at = $3 WHERE id = $4`,
		settle: 'UPDATE forwards SET state = $1, last_error = $2, updated_at = $3 WHERE id = $4',
		interrupted: `SELECT * FROM forwards WHERE state = 'sending'${orphaned} ORDER BY id`,
		// Only while its worker is still gone: two workers may recover it at once, and the one
		// that lost must not put back an attempt the winner has started since.
		requeue: `UPDATE forwards SET state = 'pending', next_at = $1, updated_at = $1${shared ? ', worker = NULL' : ''} WHERE id = $2 AND state = 'sending'${orphaned}`,
		putBack: `UPDATE forwards SET state = 'pending', attempts = attempts - 1, next_at = $1, updated_at = $2${shared ? ', worker = NULL' : ''} WHERE id = $3 AND state = 'sending'`,
		replay: `UPDATE forwards SET state = 'pending', attempts = 0, next_at = $1, last_error = NULL, updated_at = $1 WHERE id = $2 AND state IN ('failed', 'dead')`,
		counts: 'SELECT state, COUNT(*) AS n FROM forwards GROUP BY state',
		retrying: `SELECT * FROM forwards WHERE state = 'pending' AND attempts > 0 AND created_at < $1 ORDER BY id LIMIT 100`,
		all: 'SELECT * FROM forwards ORDER BY id',
		startRun:
			'INSERT INTO campaign_runs (run, campaign, started_at) VALUES ($1, $2, $3) ON CONFLICT (run) DO NOTHING',
		finishRun: 'UPDATE campaign_runs SET finished_at = $1, outcome = $2 WHERE run = $3',
		finishOpenRun:
			'UPDATE campaign_runs SET finished_at = $1, outcome = $2 WHERE run = $3 AND finished_at IS NULL',
		unfinishedRuns:
			'SELECT run, campaign, started_at FROM campaign_runs WHERE finished_at IS NULL ORDER BY started_at',
		runsSince: 'SELECT run FROM campaign_runs WHERE campaign = $1 AND started_at >= $2',
		firstRun: 'SELECT MIN(started_at) AS at FROM campaign_runs WHERE campaign = $1',
		finishedRunsBefore: 'SELECT run FROM campaign_runs WHERE finished_at < $1 ORDER BY finished_at',
		pruneEvents: 'DELETE FROM callback_events WHERE processed_at IS NOT NULL AND received_at < $1',
		pruneForwards: `DELETE FROM forwards WHERE state IN ('sent', 'failed', 'uncertain', 'dead') AND updated_at < $1`,
		pruneRuns: 'DELETE FROM campaign_runs WHERE finished_at < $1',
	} as const;
}

/**
 * Forwards queued as a step of another store's write (an API campaign's state change and
 * the event announcing it, together); one already queued under its keys is left as it is.
 */
export function queueForwardsWrite(
	dialect: Dialect,
	forwards: readonly KeyedForward[],
	at: number,
): Write {
	const rows = forwards.map((f) => [
		f.eventKey,
		f.actionKey,
		f.payload.action.type,
		JSON.stringify(f.payload),
	]);
	return [daemonSql(dialect).insertForwards, JSON.stringify(rows), at];
}

/**
 * The step that queues `forwards` only when the write's first statement changed its row:
 * an event announcing a move, queued by the one write (of several workers') that made it.
 */
export function queuedIfMoved(
	dialect: Dialect,
	forwards: readonly KeyedForward[],
	at: number,
): Step {
	return ([moved]) =>
		moved === 1 && forwards.length > 0 ? queueForwardsWrite(dialect, forwards, at) : undefined;
}
