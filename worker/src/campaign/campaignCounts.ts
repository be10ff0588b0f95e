import type { CampaignCounts } from '../../../api';
import type { Ledger } from '../storage/ledger';

/**
 * A campaign's figures as the campaign API and the events show them: the same as
 * `cloudtel campaign status` (rows by state, then what receipts and replies said). Rows
 * being submitting count as pending: their answer is not in yet.
 */
export async function campaignCounts(
	ledger: Pick<Ledger, 'counts' | 'deliveryCounts'>,
	name: string,
): Promise<CampaignCounts> {
	const { rows, total } = await ledger.counts(name);
	const delivery = await ledger.deliveryCounts(name, rows.accepted);
	return {
		recipients: total,
		// A variant campaign's held rows are still to be sent, with the winner's text.
		pending: rows.pending + rows.submitting + rows.held,
		accepted: rows.accepted,
		rejected: rows.rejected,
		uncertain: rows.uncertain,
		invalid: rows.invalid,
		duplicate: rows.duplicate,
		suppressed: rows.suppressed,
		capped: rows.capped,
		cancelled: rows.cancelled,
		delivered: delivery.delivered,
		undelivered: delivery.failed,
		replies: delivery.replied,
	};
}
