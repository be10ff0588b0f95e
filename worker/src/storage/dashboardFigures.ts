import { dashboardSql } from './dashboardSql';
import type {
	DashboardCampaign,
	DashboardFigures,
	FigureLines,
	RowStatus,
	StatusCounts,
} from './ledger';
import { ROW_STATUSES } from './ledger';
import { campaignRecord, type CampaignDbRow } from './ledgerDbRows';
import { all, type SqlDb, type Work } from './work';

export function emptyFigures(): DashboardFigures {
	return {
		rows: Object.fromEntries(ROW_STATUSES.map((s) => [s, 0])) as StatusCounts,
		total: 0,
		acceptedSegments: 0,
		delivered: 0,
		failed: 0,
		failedByCode: Object.create(null) as Record<string, number>,
		replied: 0,
		optedOut: 0,
		clicked: 0,
	};
}

export async function readDashboardCampaigns(db: SqlDb): Promise<DashboardCampaign[]> {
	const q = dashboardSql(db.dialect);
	const rows = await db.run(
		all<CampaignDbRow & { name: string; spend: string | null }>(q.campaigns),
	);
	return rows.map((r) => ({
		name: r.name,
		record: campaignRecord(r)!,
		spentMicros: Number(r.spend ?? 0),
	}));
}

/**
 * The figures of these campaigns, read in one transaction: a handful of grouped statements
 * whatever their number; of their lines after `lines.after` through `lines.through` only, when given.
 */
export async function readDashboardFigures(
	db: SqlDb,
	names: readonly string[],
	lines?: FigureLines,
): Promise<Map<string, DashboardFigures>> {
	const out = new Map(names.map((n) => [n, emptyFigures()]));
	if (names.length === 0) return out;
	const q = dashboardSql(db.dialect, lines !== undefined);
	const list = [JSON.stringify(names), ...(lines ? [lines.after, lines.through] : [])];
	type Num = number | string | null;
	const read = await db.tx(
		(function* (): Work<{
			rows: { campaign: string; status: RowStatus; n: Num; segs: Num }[];
			receipts: { campaign: string; status: string; code: string | null; n: Num }[];
			replies: { campaign: string; replied: Num; opted_out: Num }[];
			clicks: { campaign: string; clicked: Num }[];
			sends: { campaign: string; first: Num; last: Num }[];
		}> {
			return {
				rows: yield* all(q.rows, ...list),
				receipts: yield* all(q.receipts, ...list),
				replies: yield* all(q.replies, ...list),
				clicks: yield* all(q.clicks, ...list),
				sends: yield* all(q.sends, ...list),
			};
		})(),
		'read',
	);
	for (const r of read.rows) {
		const f = out.get(r.campaign)!;
		f.rows[r.status] = Number(r.n);
		f.total += Number(r.n);
		if (r.status === 'accepted') f.acceptedSegments = Number(r.segs ?? 0);
	}
	for (const r of read.receipts) {
		const f = out.get(r.campaign)!;
		if (r.status === 'Delivered') f.delivered += Number(r.n);
		else {
			f.failed += Number(r.n);
			const code = r.code ?? '';
			f.failedByCode[code] = (f.failedByCode[code] ?? 0) + Number(r.n);
		}
	}
	for (const r of read.replies) {
		const f = out.get(r.campaign)!;
		f.replied = Number(r.replied);
		f.optedOut = Number(r.opted_out);
	}
	for (const r of read.clicks) out.get(r.campaign)!.clicked = Number(r.clicked);
	for (const r of read.sends) {
		const f = out.get(r.campaign)!;
		if (r.first !== null) f.firstSentAt = Number(r.first);
		if (r.last !== null) f.lastSentAt = Number(r.last);
	}
	return out;
}
