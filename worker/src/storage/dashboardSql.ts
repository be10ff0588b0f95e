import { PAUSED_BY_KEY, SPEND_KEY } from './guardSql';
import type { Dialect } from './work';

/**
 * The dashboard's reads: every campaign in one statement, and the figures of a list of them
 * in one statement per table (grouped by campaign), never a statement per campaign.
 * `inSteps`: only the lines after $2 through $3, so that a big campaign is counted a part at
 * a time (FiguresCache), each part found by the primary key.
 */
export function dashboardSql(d: Dialect, inSteps = false) {
	const among = (column: string) => `${column} IN (SELECT n.value FROM ${d.jsonTexts('$1', 'n')})`;
	const lines = (column: string) => (inSteps ? ` AND ${column} > $2 AND ${column} <= $3` : '');
	// Whole, in the order of deliveries_by_status (no sort of every receipt); in steps, by the
	// primary key's line range (that index would be read whole for each step). A NULL code is ''.
	const code = inSteps ? `COALESCE(error_code, '')` : 'error_code';
	return {
		campaigns: `SELECT c.*, p.value AS paused_by, s.value AS spend FROM campaigns c
			LEFT JOIN meta p ON p.key = '${PAUSED_BY_KEY}' || c.name LEFT JOIN meta s ON s.key = '${SPEND_KEY}' || c.name`,
		rows: `SELECT campaign, status, COUNT(*) AS n, SUM(segments) AS segs FROM recipients WHERE ${among('campaign')}${lines('line')} GROUP BY campaign, status`,
		receipts: `SELECT campaign, status, ${code} AS code, COUNT(*) AS n FROM deliveries WHERE ${among('campaign')}${lines('line')} GROUP BY campaign, status, ${code}`,
		replies: `SELECT campaign, COUNT(DISTINCT line) AS replied, COUNT(DISTINCT CASE WHEN opt_out THEN line END) AS opted_out FROM replies WHERE ${among('campaign')}${lines('line')} GROUP BY campaign`,
		clicks: `SELECT campaign, COUNT(DISTINCT line) AS clicked FROM link_clicks WHERE ${among('campaign')}${lines('line')} AND NOT prefetch GROUP BY campaign`,
		sends: `SELECT campaign, MIN(at) AS first, MAX(at) AS last FROM answers WHERE ${among('campaign')}${lines('first')} AND at IS NOT NULL GROUP BY campaign`,
	};
}
