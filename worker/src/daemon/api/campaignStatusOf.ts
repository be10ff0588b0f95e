import {
	shownSettings,
	emptyCampaignCounts,
	type CampaignCounts,
	type CampaignState,
	type CampaignStatus,
} from '../../../../api';
import { campaignCounts } from '../../campaign/campaignCounts';
import type { Ledger } from '../../storage/ledger';
import { variantsStatus } from '../../campaign/variantStatus';
import type { ApiCampaignRecord, ApiCampaignStore } from '../../storage/apiCampaignStore';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/**
 * A campaign's Status: its state from the API's record (and, while it runs, the ledger's
 * pause and cancel, and the schedule), its counts from the ledger's row counts and what
 * the receipts and replies said. `recipients` is what its pages hold, imported or not yet
 * (at its end, when the pages are dropped, the ledger's rows).
 */
export async function campaignStatusOf(
	record: ApiCampaignRecord,
	store: Pick<ApiCampaignStore, 'pageTotals'>,
	ledger: Ledger,
	now = Date.now(),
): Promise<CampaignStatus> {
	const totals = await store.pageTotals(record.name);
	const stored = record.state === 'draft' ? undefined : await ledger.campaign(record.name);
	let counts: CampaignCounts = { ...emptyCampaignCounts(), recipients: totals.recipients };
	if (stored) {
		counts = await campaignCounts(ledger, record.name);
		// Rows not imported yet are still to be sent; once imported (and at the end, when the
		// pages are gone) the ledger has them all, less any row `contact forget` erased.
		if (stored.phase === 'importing') {
			counts.pending += Math.max(0, totals.recipients - counts.recipients);
			counts.recipients = Math.max(totals.recipients, counts.recipients);
		}
	} else if (record.state !== 'draft') counts.pending = totals.recipients;
	const variants = stored ? await variantsStatus(ledger, stored.spec) : undefined;
	// A cancel its run is still settling is the ledger's: shown as the end it will be.
	const cancel = record.state === 'started' ? stored?.cancelledBy : undefined;
	const finishedAt = cancel?.at ?? record.finishedAt;
	const reason = cancel?.reason ?? record.reason;
	return {
		name: record.name,
		state: cancel ? 'cancelled' : shownState(record, stored?.paused === true, counts, now),
		settings: shownSettings(record.settings),
		createdAt: iso(record.createdAt)!,
		...(record.startedAt !== undefined ? { startedAt: iso(record.startedAt) } : {}),
		...(finishedAt !== undefined ? { finishedAt: iso(finishedAt) } : {}),
		...(reason !== undefined ? { reason } : {}),
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

/**
 * The state a caller sees: a started campaign is sending, scheduled (its schedule ahead
 * and nothing sent yet) or paused (the ledger's flag, where a pause from any interface is
 * written).
 */
function shownState(
	record: ApiCampaignRecord,
	paused: boolean,
	counts: CampaignCounts,
	now: number,
): CampaignState {
	switch (record.state) {
		case 'started': {
			const sent = counts.accepted + counts.rejected + counts.uncertain;
			const scheduled =
				record.settings.schedule !== undefined &&
				Date.parse(record.settings.schedule) > now &&
				sent === 0;
			return paused ? 'paused' : scheduled ? 'scheduled' : 'sending';
		}
		default:
			return record.state;
	}
}
