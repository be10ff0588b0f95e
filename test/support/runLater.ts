import type { RunningSandbox } from '../../sandbox/src';
import type { CampaignSummary } from '../../worker/src/campaign/campaignSummary';
import { runCampaign } from '../../worker/src/campaign/runCampaign';
import { SilentReporter } from '../../worker/src/daemon/api/silentReporter';
import type { CampaignSpec } from '../../worker/src/settings/campaignSpec';
import { dbLocation } from '../../worker/src/storage/dbLocation';
import { openRunLedger } from '../../worker/src/storage/openStores';

/**
 * The same campaign run again, in this process, by a clock `laterMs` ahead (past a variant
 * decision, say: the CLI has no clock to set); on `db`'s ledger, through `sandbox`, silently.
 */
export async function runLater(
	sandbox: RunningSandbox,
	db: string,
	spec: Omit<CampaignSpec, 'propertySid'>,
	laterMs: number,
): Promise<CampaignSummary> {
	const ledger = await openRunLedger(dbLocation(db), () => undefined);
	try {
		return await runCampaign(
			{
				spec: { ...spec, propertySid: sandbox.demo.PropertySid },
				provider: {
					baseUrl: sandbox.url,
					accountSid: sandbox.demo.AccountSid,
					authToken: sandbox.demo.AuthToken,
				},
				rate: 0,
				batchSize: 100,
				concurrency: 2,
				now: () => Date.now() + laterMs,
			},
			{ ledger, reporter: new SilentReporter() },
		);
	} finally {
		await ledger.close();
	}
}
