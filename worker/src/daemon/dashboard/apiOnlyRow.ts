import type { ApiCampaignRecord } from '../../storage/apiCampaignStore';
import { failedWhy } from './campaignPhase';
import type { DashboardRow } from './dashboardRow';

/** What the dashboard reads of an API campaign's record: a draft's, or a failed one's end. */
export type ApiCampaignEntry = Pick<
	ApiCampaignRecord,
	'name' | 'state' | 'createdAt' | 'finishedAt' | 'reason'
>;

/**
 * An API campaign the ledger does not hold: a draft (its start puts it there), or one that
 * failed before its import. It has no figures and no controls.
 */
export function apiOnlyRow(e: ApiCampaignEntry): DashboardRow {
	const failed = e.state === 'failed';
	return {
		name: e.name,
		report: `/campaigns/${encodeURIComponent(e.name)}`,
		phase: failed ? 'failed' : 'draft',
		why: failed
			? failedWhy(e)
			: 'made through the API, not started yet: its recipients may still come',
		sent: 0,
		toSend: 0,
		pending: 0,
		skipped: 0,
		delivered: 0,
		failed: 0,
		replied: 0,
		optedOut: 0,
		startedAt: new Date(e.createdAt).toISOString(),
		...(failed && e.finishedAt !== undefined
			? { endedAt: new Date(e.finishedAt).toISOString() }
			: {}),
		failedByCode: Object.create(null) as Record<string, number>,
		open: false,
		paused: false,
	};
}
