import type { Dialect } from './work';

/** A variant campaign's statements (variantStore.ts), rendered per backend. */
export function variantSql(d: Dialect) {
	// The held row's JSON [[text, segments], ...]: the winner's (1-based) pair.
	const held = (n: number) => `${d.json('text')} -> (CAST($2 AS INTEGER) - 1) ->> ${n}`;
	return {
		tally: `SELECT r.variant AS variant, COUNT(*) AS n,
			SUM(CASE WHEN r.status = 'accepted' THEN 1 ELSE 0 END) AS sent,
			SUM(CASE WHEN d.status = 'Delivered' THEN 1 ELSE 0 END) AS delivered,
			SUM(CASE WHEN d.status = 'Failed' THEN 1 ELSE 0 END) AS failed,
			SUM(CASE WHEN EXISTS (SELECT 1 FROM replies p WHERE p.campaign = r.campaign AND p.line = r.line AND NOT p.opt_out) THEN 1 ELSE 0 END) AS replies,
			SUM(CASE WHEN EXISTS (SELECT 1 FROM replies p WHERE p.campaign = r.campaign AND p.line = r.line AND p.opt_out) THEN 1 ELSE 0 END) AS opt_outs,
			SUM(CASE WHEN EXISTS (SELECT 1 FROM link_clicks c WHERE c.campaign = r.campaign AND c.line = r.line AND NOT c.prefetch) THEN 1 ELSE 0 END) AS clicks
			FROM recipients r LEFT JOIN deliveries d ON d.campaign = r.campaign AND d.line = r.line
			WHERE r.campaign = $1 AND r.variant IS NOT NULL GROUP BY r.variant ORDER BY r.variant`,
		testRows: `SELECT COUNT(*) AS n FROM recipients WHERE campaign = $1 AND variant IS NOT NULL`,
		lastAnswer: `SELECT MAX(at) AS at FROM answers WHERE campaign = $1`,
		decision: `SELECT winner, winner_by, rates, by_hand, decided_at FROM variant_decisions WHERE campaign = $1`,
		insertDecision: `INSERT INTO variant_decisions (campaign, winner, winner_by, rates, by_hand, decided_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (campaign) DO NOTHING`,
		releaseHeld: `UPDATE recipients SET status = 'pending', variant = CAST($2 AS INTEGER), text = ${held(0)}, segments = CAST(${held(1)} AS INTEGER)
			WHERE campaign = $1 AND status = 'held'`,
	};
}
