import type { Dialect } from './work';

/** Reads and writes for retrying failed recipients and suppressing numbers that do not exist. */
export function retrySql(d: Dialect) {
	return {
		// Failed with one of the codes ($2, a JSON array), not suppressed (opted out, forgotten
		// or not existing), and not delivered in any campaign since it failed.
		retryableRows: `SELECT r.line, r.to_number, r.text, r.time_zone FROM recipients r
			JOIN deliveries d ON d.campaign = r.campaign AND d.line = r.line
			WHERE r.campaign = $1 AND r.to_number IS NOT NULL AND d.status = 'Failed'
			AND d.error_code IN (SELECT c.value FROM ${d.jsonTexts('$2', 'c')})
			AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.number = r.to_number)
			AND NOT EXISTS (SELECT 1 FROM recipients o JOIN deliveries g ON g.campaign = o.campaign AND g.line = o.line
				WHERE o.to_number = r.to_number AND g.status = 'Delivered' AND g.at >= d.at)
			ORDER BY r.line`,
		// Never over an opt-out: its reason must stay, and a delivery must not lift it.
		suppressPermanent: `INSERT INTO suppressions (number, reason, created_at) VALUES ($1, $2, $3) ON CONFLICT (number) DO NOTHING`,
		// substr, not LIKE: the reason may hold '_'.
		liftPermanent: `DELETE FROM suppressions WHERE number = $1 AND substr(reason, 1, length(CAST($2 AS TEXT))) = CAST($2 AS TEXT)`,
	};
}
