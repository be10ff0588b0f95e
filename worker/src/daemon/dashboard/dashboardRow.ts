import type { DashboardCampaign, DashboardFigures } from '../../storage/ledger';
import type { ApiCampaignRecord } from '../../storage/apiCampaignStore';
import { type DashboardPhase, campaignPhase } from './campaignPhase';

/** One campaign as the dashboard shows it, and as /campaigns.json gives it. */
export interface DashboardRow {
	name: string;
	report: string;
	phase: DashboardPhase;
	why: string;
	/** Rows sent (accepted, refused or uncertain) of those to send (sent and still to send). */
	sent: number;
	toSend: number;
	pending: number;
	/** Rows never to be sent: invalid, duplicate, suppressed, cancelled (a status not known here too). */
	skipped: number;
	delivered: number;
	/** Refused by the provider, or a receipt said failed. */
	failed: number;
	replied: number;
	optedOut: number;
	/** Only where its links are tracked. */
	clicked?: number;
	/** Money spent, where a price is known. */
	cost?: number;
	/** ISO 8601: its first send (or its creation), and its end once over. */
	startedAt: string;
	endedAt?: string;
	/** Failed receipts by the provider's ErrorCode. */
	failedByCode: Record<string, number>;
	/** Its figures are being counted (a big campaign, first seen): they come with the next read. */
	counting?: true;
	/** Not over yet: it can be paused or cancelled; a paused one resumed. */
	open: boolean;
	paused: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function dashboardRow(
	c: DashboardCampaign,
	f: DashboardFigures,
	now: number,
	pricePerSegment: number | undefined,
	/** Its API record, where that says it failed. */
	failed?: Pick<ApiCampaignRecord, 'reason' | 'finishedAt'>,
): DashboardRow {
	const { phase, why } = campaignPhase(c, f, now, failed);
	const r = f.rows;
	const sent = r.accepted + r.rejected + r.uncertain;
	const pending = r.pending + r.submitting + r.held;
	const spent =
		c.spentMicros > 0
			? c.spentMicros / 1e6
			: pricePerSegment !== undefined
				? f.acceptedSegments * pricePerSegment
				: undefined;
	const over = phase === 'finished' || phase === 'cancelled' || phase === 'failed';
	return {
		name: c.name,
		report: `/campaigns/${encodeURIComponent(c.name)}`,
		phase,
		why,
		sent,
		toSend: sent + pending,
		pending,
		// Invalid, duplicate, suppressed, cancelled, and any status this version does not know.
		skipped: f.total - sent - pending,
		delivered: f.delivered,
		failed: r.rejected + f.failed,
		replied: f.replied,
		optedOut: f.optedOut,
		...(c.record.spec.linkBase !== undefined ? { clicked: f.clicked } : {}),
		...(spent !== undefined ? { cost: Math.round(spent * 1e4) / 1e4 } : {}),
		startedAt: iso(f.firstSentAt ?? c.record.createdAt),
		...(over
			? { endedAt: iso(failed?.finishedAt ?? Math.max(f.lastSentAt ?? 0, c.record.updatedAt)) }
			: {}),
		failedByCode: f.failedByCode,
		open: !over,
		paused: c.record.paused,
	};
}

const ORDER: Record<DashboardPhase, number> = {
	sending: 0,
	paused: 1,
	waiting: 2,
	draft: 3,
	finished: 4,
	cancelled: 4,
	failed: 4,
};

/** Running ones first, then paused, then waiting, then drafts; the rest latest first. */
export function byPhase(a: DashboardRow, b: DashboardRow): number {
	return (
		ORDER[a.phase] - ORDER[b.phase] ||
		(a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0) ||
		(a.name < b.name ? -1 : 1)
	);
}
