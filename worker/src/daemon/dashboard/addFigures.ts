import type { DashboardFigures } from '../../storage/ledger';

/** Two parts of a campaign's figures (disjoint lines) as one: `into`, added to. */
export function addFigures(into: DashboardFigures, part: DashboardFigures): DashboardFigures {
	// Every status the part has, one this version does not know too.
	for (const [status, n] of Object.entries(part.rows) as [keyof DashboardFigures['rows'], number][])
		into.rows[status] = (into.rows[status] ?? 0) + n;
	into.total += part.total;
	into.acceptedSegments += part.acceptedSegments;
	into.delivered += part.delivered;
	into.failed += part.failed;
	for (const [code, n] of Object.entries(part.failedByCode))
		into.failedByCode[code] = (into.failedByCode[code] ?? 0) + n;
	into.replied += part.replied;
	into.optedOut += part.optedOut;
	into.clicked += part.clicked;
	if (part.firstSentAt !== undefined)
		into.firstSentAt = Math.min(into.firstSentAt ?? Infinity, part.firstSentAt);
	if (part.lastSentAt !== undefined)
		into.lastSentAt = Math.max(into.lastSentAt ?? -Infinity, part.lastSentAt);
	return into;
}
