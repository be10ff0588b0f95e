import { existsSync } from 'node:fs';
import { FatalError, UsageError } from '../errors';
import type { WorkerConfig } from '../config/workerConfigSchema';
import { dbLocation } from '../storage/dbLocation';
import { openLedger } from '../storage/openStores';
import { runsOfCampaign } from './callbacks/4-replies/runName';
import { signReportPath } from './http/reportLinks';

/**
 * `cloudtel worker --report-link`: a signed link to the reports at the worker's public URL.
 * It needs the report token and the ledger, nothing of the provider's: printing a link
 * sends nothing. A campaign is looked up first, so no link is signed for a page that is a 404.
 */
export async function reportLinkCommand(
	config: WorkerConfig,
	campaign: string | undefined,
	minutes = '60',
): Promise<{ link: string; note?: string }> {
	const token = config.server.reportToken;
	if (token === undefined)
		throw new UsageError(
			'--report-link needs server.reportToken (or CLOUDTEL_REPORT_TOKEN): the worker serves no report without it',
		);
	const n = Number(minutes);
	if (!/^\d+$/.test(minutes) || n < 1 || n > 7 * 24 * 60)
		throw new UsageError(
			`--minutes must be a whole number of minutes from 1 to ${7 * 24 * 60} (got "${minutes}")`,
		);
	let page = campaign;
	let note: string | undefined;
	if (campaign !== undefined) {
		const names = await ledgerCampaigns(config.db);
		if (!names.includes(campaign)) {
			// A config campaign's name stands for its latest cron run, as in `campaign status`.
			const runs = runsOfCampaign(campaign, names);
			if (runs.length === 0)
				throw new FatalError(
					`--campaign: no campaign named ${campaign} in the worker's ledger (${shownDb(config.db)}), so no report to link to`,
				);
			page = runs[0];
			note = `${campaign} has ${runs.length} run${runs.length === 1 ? '' : 's'}: the link is to the latest, ${page}`;
		}
	}
	const path = page === undefined ? '/campaigns' : `/campaigns/${encodeURIComponent(page)}`;
	const expires = Math.floor(Date.now() / 1000) + n * 60;
	return {
		link: `${config.server.publicUrl.replace(/\/+$/, '')}${signReportPath(token, path, expires)}`,
		...(note ? { note } : {}),
	};
}

async function ledgerCampaigns(db: string): Promise<string[]> {
	const location = dbLocation(db, 'db');
	if (location.kind === 'sqlite' && !existsSync(location.path)) return [];
	const ledger = await openLedger(location, { readonly: true });
	try {
		return await ledger.campaignNames();
	} finally {
		await ledger.close();
	}
}

function shownDb(db: string): string {
	const location = dbLocation(db, 'db');
	return location.kind === 'postgres' ? location.shown : location.path;
}
