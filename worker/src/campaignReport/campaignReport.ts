import type { CampaignPhase, Ledger, StatusCounts } from '../ledger/ledger';
import { failuresByCountry } from './countryOfPrefix';
import { receiptPercentiles } from './receiptPercentiles';
import { timeBucket } from './timeBucket';

/** A campaign's outcome, as `campaign report --json` prints it and the HTML shows it. */
export interface CampaignReport {
	campaign: string;
	phase: CampaignPhase;
	generatedAt: string;
	/** Each stage a subset of the one before: rows, valid (not invalid), sent (accepted), then what receipts and replies said. */
	funnel: { rows: number; valid: number; sent: number; delivered: number; failed: number; replied: number; optedOut: number };
	statuses: StatusCounts;
	awaitingReceipt: number;
	failuresByErrorCode: { errorCode: string; count: number }[];
	failuresByCountry: { country: string; count: number }[];
	timeline: {
		bucketSeconds: number;
		sends: { at: string; count: number }[];
		deliveries: { at: string; delivered: number; failed: number }[];
	};
	/** Seconds from the answer that accepted a message to its receipt; null before any receipt. */
	receiptSeconds: { p50: number; p95: number; receipts: number } | null;
	/**
	 * Where the send times of the timeline and of receiptSeconds come from: the stored answer
	 * that accepted a message, or, for a message whose answer was lost (uncertain) until a
	 * receipt showed it was sent, the moment its request left.
	 */
	sendTimes: { fromAnswer: number; fromRequest: number; note: string };
	segments: { sent: number; pricePerSegment: number | null; estimatedCost: number | null };
}

export const SEND_TIMES =
	"a message is sent when the provider's answer accepting it was stored; one whose answer was lost, accepted later by its receipt, when its request left";

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** Reads counts and buckets, never the rows: as fast on a million-row campaign as the database's GROUP BYs. */
export async function readCampaignReport(ledger: Ledger, name: string, options: { pricePerSegment?: number } = {}): Promise<CampaignReport> {
	const record = await ledger.campaign(name);
	if (!record) throw new Error(`no campaign named ${name}`);
	const counts = await ledger.counts(name);
	const delivery = await ledger.deliveryCounts(name);
	const span = await ledger.activitySpan(name);
	const bucketSeconds = timeBucket(span ? span.to - span.from : 0);
	const figures = await ledger.reportFigures(name, bucketSeconds);
	const price = options.pricePerSegment;
	return {
		campaign: name,
		phase: record.phase,
		generatedAt: new Date().toISOString(),
		funnel: {
			rows: counts.total,
			valid: counts.total - counts.rows.invalid,
			sent: counts.rows.accepted,
			delivered: delivery.delivered,
			failed: delivery.failed,
			replied: delivery.replied,
			optedOut: delivery.optedOut,
		},
		statuses: counts.rows,
		awaitingReceipt: delivery.awaitingReceipt,
		failuresByErrorCode: Object.entries(delivery.failedByCode)
			.map(([errorCode, count]) => ({ errorCode, count }))
			.sort((x, y) => y.count - x.count || x.errorCode.localeCompare(y.errorCode)),
		failuresByCountry: failuresByCountry(figures.failuresByPrefix),
		timeline: {
			bucketSeconds,
			sends: figures.sends.map((b) => ({ at: iso(b.at), count: b.count })),
			deliveries: figures.deliveries.map((b) => ({ at: iso(b.at), delivered: b.delivered, failed: b.failed })),
		},
		receiptSeconds: receiptPercentiles(figures.receiptTenths) ?? null,
		sendTimes: {
			fromAnswer: counts.rows.accepted - figures.sentByReceipt,
			fromRequest: figures.sentByReceipt,
			note: SEND_TIMES,
		},
		segments: {
			sent: counts.acceptedSegments,
			pricePerSegment: price ?? null,
			// Rounded to a millionth: prices per segment are often fractions of a cent.
			estimatedCost: price === undefined ? null : Math.round(counts.acceptedSegments * price * 1e6) / 1e6,
		},
	};
}
