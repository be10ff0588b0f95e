import type { Dialect } from './work';

/**
 * The guardrails' state, in meta rows both backends already have (one data model, no new
 * table for every worker's schema to agree on): `spend:<campaign>` holds the millionths of
 * money reserved for messages handed over, `paused-by:<campaign>` the guardrail that
 * paused it, as JSON {by, detail}, `cancelled-by:<campaign>` a cancel its run had to settle
 * (CancelledBy, as JSON).
 */
export const SPEND_KEY = 'spend:';
export const PAUSED_BY_KEY = 'paused-by:';
export const CANCELLED_BY_KEY = 'cancelled-by:';
/** The spend of one day across every campaign (`limits.dailyMaxCost`): `spend-day:2026-11-28`. */
export const DAY_KEY = 'spend-day:';
/** The failure-rate brake judges only rows after this line: the last one sent when it paused. */
export const BRAKE_FROM_KEY = 'brake-from:';

export function guardSql(d: Dialect) {
	return {
		ensure: `INSERT INTO meta (key, value) VALUES ($1, '0') ON CONFLICT (key) DO NOTHING`,
		spent: `SELECT CAST(value AS BIGINT) AS micros FROM meta WHERE key = $1`,
		// One statement: two workers reserving at once are ordered by the row's lock, and the
		// second one's condition is judged on the first one's sum.
		reserve: `UPDATE meta SET value = CAST(CAST(value AS BIGINT) + $2 AS TEXT) WHERE key = $1 AND CAST(value AS BIGINT) + $2 <= $3`,
		release: `UPDATE meta SET value = CAST(${d.greatest('CAST(value AS BIGINT) - $2', '0')} AS TEXT) WHERE key = $1`,
		setPausedBy: `INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		forget: `DELETE FROM meta WHERE key = $1`,
		// The failure-rate brake's window: the latest rows with an outcome (refused, or a receipt
		// came), in line order, which is the order chunks are sent in; from the highest line the
		// run has settled down, so the rows still pending are not scanned.
		outcomes: `SELECT CASE WHEN r.status = 'rejected' OR d.status = 'Failed' THEN 1 ELSE 0 END AS failed,
			COALESCE(d.error_code, r.error_code, '') AS code
			FROM recipients r LEFT JOIN deliveries d ON d.campaign = r.campaign AND d.line = r.line
			WHERE r.campaign = $1 AND r.line > $2 AND r.line <= $4 AND (r.status = 'rejected' OR (r.status = 'accepted' AND d.status IS NOT NULL))
			ORDER BY r.line DESC LIMIT $3`,
		sentThrough: `SELECT MAX(line) AS line FROM recipients WHERE campaign = $1 AND status IN ('accepted', 'rejected', 'uncertain')`,
		brakeFrom: `SELECT CAST(value AS BIGINT) AS line FROM meta WHERE key = $1`,
		// The frequency cap's count: messages to each number sent since $3 (Unix ms) by any
		// campaign (when its answer was stored, or its request left for one whose answer was
		// lost), and those of other campaigns on their way now; the asking campaign's own rows
		// on their way are the ones being judged.
		sendsTo: `SELECT r.to_number AS number, COUNT(*) AS n FROM recipients r
			WHERE r.to_number IN (SELECT l.value FROM ${d.jsonTexts('$1', 'l')})
			AND ((r.status IN ('accepted', 'uncertain') AND (r.attempted_at >= $3
					OR (SELECT a.at FROM answers a WHERE a.campaign = r.campaign AND a.first <= r.line AND a.last >= r.line ORDER BY a.first DESC LIMIT 1) >= $3))
				OR (r.status = 'pending' AND r.campaign <> $2
					AND EXISTS (SELECT 1 FROM submissions s WHERE s.campaign = r.campaign AND r.line BETWEEN s.first AND s.last)))
			GROUP BY r.to_number`,
	};
}
