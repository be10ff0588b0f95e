import type { Dialect } from './work';

/**
 * The guardrails' state, in meta rows both backends already have (one data model, no new
 * table for every worker's schema to agree on): `spend:<campaign>` holds the millionths of
 * money reserved for messages handed over, `paused-by:<campaign>` the guardrail that
 * paused it, as JSON {by, detail}.
 */
export const SPEND_KEY = 'spend:';
export const PAUSED_BY_KEY = 'paused-by:';
/** The spend of one day across every campaign (`limits.dailyMaxCost`): `spend-day:2026-11-28`. */
export const DAY_KEY = 'spend-day:';

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
	};
}
