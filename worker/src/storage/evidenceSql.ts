import type { Dialect } from './work';

/** The evidence export's reads (sqlLedger's `evidence`): a page of rows at a time, by line range. */
export function evidenceSql(d: Dialect) {
	return {
		// The answer that accepted a row is the latest covering its line; attempted_at times one whose answer was lost.
		rowTimes: `SELECT r.line, r.attempted_at, d.status AS receipt_status, d.at AS receipt_at,
			(SELECT a.at FROM answers a WHERE a.campaign = r.campaign AND a.first <= r.line AND a.last >= r.line ORDER BY a.id DESC LIMIT 1) AS answered_at
			FROM recipients r LEFT JOIN deliveries d ON d.campaign = r.campaign AND d.line = r.line
			WHERE r.campaign = $1 AND r.line BETWEEN $2 AND $3`,
		replies: `SELECT line, at, opt_out FROM replies WHERE campaign = $1 AND line BETWEEN $2 AND $3 ORDER BY at`,
		// The first opt-out recorded for the number at or after the reply: the one it made.
		campaignOptOuts: `SELECT p.at AS reply_at,
			(SELECT MIN(e.at) FROM consent_events e WHERE e.number = r.to_number AND e.kind = 'opt-out' AND e.at >= p.at) AS suppressed_at,
			(SELECT e.reason FROM consent_events e WHERE e.number = r.to_number AND e.kind = 'opt-out' AND e.at >= p.at ORDER BY e.at LIMIT 1) AS reason
			FROM replies p JOIN recipients r ON r.campaign = p.campaign AND r.line = p.line
			WHERE p.campaign = $1 AND p.opt_out = ${d.name === 'postgres' ? 'true' : '1'} ORDER BY p.at`,
		trails: `SELECT number, at, kind, reason FROM consent_events WHERE number IN (SELECT l.value FROM ${d.jsonTexts('$1', 'l')}) ORDER BY at`,
	};
}
