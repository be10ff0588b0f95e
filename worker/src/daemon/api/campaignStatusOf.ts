import {
	emptyCampaignCounts,
	type CampaignCounts,
	type CampaignState,
	type CampaignStatus,
} from '../../../../api';
import type { Ledger } from '../../storage/ledger';
import { variantsStatus } from '../../campaign/variantStatus';
import type { ApiCampaignRecord, ApiCampaignStore } from '../../storage/apiCampaignStore';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/**
 * A campaign's Status: its state from the API's record (and, while it runs, the ledger's
 * pause flag and the schedule), its counts from the ledger's row counts and what the
 * receipts and replies said. `recipients` is what its pages hold, imported or not yet (at
 * its end, when the pages are dropped, the ledger's rows).
 */
export async function campaignStatusOf(
	record: ApiCampaignRecord,
	store: Pick<ApiCampaignStore, 'pageTotals'>,
	ledger: Ledger,
	now = Date.now(),
): Promise<CampaignStatus> {
	const totals = await store.pageTotals(record.name);
	const counts: CampaignCounts = { ...emptyCampaignCounts(), recipients: totals.recipients };
	const stored = record.state === 'draft' ? undefined : await ledger.campaign(record.name);
	let sent = 0;
	if (stored) {
		const c = await ledger.counts(record.name);
		const d = await ledger.deliveryCounts(record.name);
		Object.assign(counts, {
			// A variant campaign's held rows are still to be sent, with the winner's text.
			pending: c.rows.pending + c.rows.submitting + c.rows.held,
			accepted: c.rows.accepted,
			rejected: c.rows.rejected,
			uncertain: c.rows.uncertain,
			invalid: c.rows.invalid,
			duplicate: c.rows.duplicate,
			suppressed: c.rows.suppressed,
			cancelled: c.rows.cancelled,
			delivered: d.delivered,
			undelivered: d.failed,
			replies: d.replied,
		});
		// Rows not imported yet are still to be sent; once imported (and at the end, when the
		// pages are gone) the ledger has them all, less any row `contact forget` erased.
		const importing = stored.phase === 'importing';
		if (importing) counts.pending += Math.max(0, totals.recipients - c.total);
		counts.recipients = importing ? Math.max(totals.recipients, c.total) : c.total;
		sent = c.rows.accepted + c.rows.rejected + c.rows.uncertain + c.rows.submitting;
	} else if (record.state !== 'draft') counts.pending = totals.recipients;
	const variants = stored ? await variantsStatus(ledger, stored.spec) : undefined;
	let state: CampaignState;
	switch (record.state) {
		case 'started': {
			const scheduled =
				record.settings.schedule !== undefined &&
				Date.parse(record.settings.schedule) > now &&
				sent === 0;
			state = stored?.paused ? 'paused' : scheduled ? 'scheduled' : 'sending';
			break;
		}
		// Cancelled for its callers; its run is settling its batches in flight.
		case 'cancelling':
			state = 'cancelled';
			break;
		default:
			state = record.state;
	}
	return {
		name: record.name,
		state,
		settings: record.settings,
		createdAt: iso(record.createdAt)!,
		...(record.startedAt !== undefined ? { startedAt: iso(record.startedAt) } : {}),
		...(record.finishedAt !== undefined ? { finishedAt: iso(record.finishedAt) } : {}),
		...(record.reason !== undefined ? { reason: record.reason } : {}),
		counts,
		...(variants
			? {
					variants: variants.variants.map((f) => ({
						text: f.text,
						rows: f.rows,
						sent: f.sent,
						delivered: f.delivered,
						failed: f.failed,
						replies: f.replies,
						clicks: f.clicks,
						optOuts: f.optOuts,
					})),
					winner: variants.winner && {
						index: variants.winner.index,
						by: variants.winner.by,
						byHand: variants.winner.byHand,
						decidedAt: variants.winner.decidedAt,
					},
				}
			: {}),
	};
}
