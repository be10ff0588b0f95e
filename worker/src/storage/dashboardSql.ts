import { PAUSED_BY_KEY, SPEND_KEY } from './guardSql';
import type { Dialect } from './work';

/**
 * The dashboard's reads: every campaign in one statement, and the figures of a list of them
 * in one statement per table (grouped by campaign), never a statement per campaign.
 */
export function dashboardSql(d: Dialect) {
	const among = (column: string) => `${column} IN (SELECT n.value FROM ${d.jsonTexts('$1', 'n')})`;
	return {
		campaigns: `SELECT c.*, p.value AS paused_by, s.value AS spend FROM campaigns c
			LEFT JOIN meta p ON p.key = '${PAUSED_BY_KEY}' || c.name LEFT JOIN meta s ON s.key = '${SPEND_KEY}' || c.name`,
		rows: `SELECT campaign, status, COUNT(*) AS n, SUM(segments) AS segs FROM recipients WHERE ${among('campaign')} GROUP BY campaign, status`,
		// In the order of deliveries_by_status, so no sort of every receipt; a NULL code is ''.
		receipts: `SELECT campaign, status, error_code AS code, COUNT(*) AS n FROM deliveries WHERE ${among('campaign')} GROUP BY campaign, status, error_code`,
		replies: `SELECT campaign, COUNT(DISTINCT line) AS replied, COUNT(DISTINCT CASE WHEN opt_out THEN line END) AS opted_out FROM replies WHERE ${among('campaign')} GROUP BY campaign`,
		clicks: `SELECT campaign, COUNT(DISTINCT line) AS clicked FROM link_clicks WHERE ${among('campaign')} AND NOT prefetch GROUP BY campaign`,
		sends: `SELECT campaign, MIN(at) AS first, MAX(at) AS last FROM answers WHERE ${among('campaign')} AND at IS NOT NULL GROUP BY campaign`,
	};
}
