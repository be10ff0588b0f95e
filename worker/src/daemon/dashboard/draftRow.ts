import type { ApiCampaignRecord } from '../../storage/apiCampaignStore';
import type { DashboardRow } from './dashboardRow';

/**
 * An API campaign whose settings are in but that has not started: not in the ledger yet
 * (a start puts it there), so it has no figures, no controls and no report.
 */
export function draftRow(d: Pick<ApiCampaignRecord, 'name' | 'createdAt'>): DashboardRow {
	return {
		name: d.name,
		report: `/campaigns/${encodeURIComponent(d.name)}`,
		phase: 'draft',
		why: 'made through the API, not started yet: its recipients may still come',
		sent: 0,
		toSend: 0,
		pending: 0,
		skipped: 0,
		delivered: 0,
		failed: 0,
		replied: 0,
		optedOut: 0,
		startedAt: new Date(d.createdAt).toISOString(),
		failedByCode: Object.create(null) as Record<string, number>,
		open: false,
		paused: false,
	};
}
