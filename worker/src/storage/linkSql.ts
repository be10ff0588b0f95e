import type { Dialect } from './work';

/** When the answer that accepted a row was stored (as ledgerSql's answerAt). */
const SENT_AT = `(SELECT a.at FROM answers a WHERE a.campaign = $1 AND a.first <= $2 AND a.last >= $2 ORDER BY a.first DESC LIMIT 1)`;

/** Every statement about tracked links and their clicks, for one backend. */
export function linkSql(d: Dialect) {
	return {
		// A JSON array of [token, line, url]; a token taken twice fails the import batch, never shares a row.
		insertLinks: `INSERT INTO links (token, campaign, line, url, created_at)
			SELECT j.value ->> 0, $1, CAST(j.value ->> 1 AS INTEGER), j.value ->> 2, $3 FROM ${d.jsonRows('$2', 'j')}`,
		target: `SELECT url, created_at, campaign, line FROM links WHERE token = $1`,
		/** When the row's message was sent and its receipt came: a request close to either is a carrier's scanner. */
		rowTimes: `SELECT (SELECT received_at FROM deliveries WHERE campaign = $1 AND line = $2) AS received_at, ${SENT_AT} AS sent_at`,
		rowNumber: `SELECT to_number FROM recipients WHERE campaign = $1 AND line = $2`,
		clickedBefore: `SELECT 1 AS found FROM link_clicks WHERE token = $1 AND NOT prefetch LIMIT 1`,
		insertClick: `INSERT INTO link_clicks (click_key, token, campaign, line, at, prefetch) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (click_key) DO NOTHING`,
		counts: `SELECT COUNT(DISTINCT CASE WHEN prefetch THEN NULL ELSE line END) AS clicked,
			SUM(CASE WHEN prefetch THEN 0 ELSE 1 END) AS clicks, SUM(CASE WHEN prefetch THEN 1 ELSE 0 END) AS prefetches
			FROM link_clicks WHERE campaign = $1`,
		perLink: `SELECT l.url, COUNT(DISTINCT c.line) AS clicked, COUNT(*) AS clicks FROM link_clicks c JOIN links l ON l.token = c.token
			WHERE c.campaign = $1 AND NOT c.prefetch GROUP BY l.url ORDER BY 3 DESC, 1`,
		clickBuckets: `SELECT CAST(at / 1000 / $2 AS BIGINT) * $2 AS at, COUNT(*) AS count FROM link_clicks WHERE campaign = $1 AND NOT prefetch GROUP BY 1 ORDER BY 1`,
		clickedLines: `SELECT DISTINCT line FROM link_clicks WHERE campaign = $1 AND NOT prefetch ORDER BY line`,
		rowClicks: `SELECT c.at, c.prefetch, l.url FROM link_clicks c LEFT JOIN links l ON l.token = c.token WHERE c.campaign = $1 AND c.line = $2 ORDER BY c.at`,
		pruneLinks: `DELETE FROM links WHERE created_at < $1`,
	};
}

export type LinkSql = ReturnType<typeof linkSql>;
