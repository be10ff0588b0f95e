import { ExitCodes } from '../campaign/exitCodes';
import { ConfigError } from '../config/configError';
import { loadWorkerConfig } from '../config/loadWorkerConfig';
import { FatalError, UsageError } from '../errors';
import { dbLocation } from '../storage/dbLocation';
import { openDaemonStore, openLedger } from '../storage/openStores';
import { runName } from '../daemon/callbacks/4-replies/runName';
import { CampaignEvents } from '../daemon/callbacks/5-events/campaignEvents';
import { CampaignRunner } from '../daemon/campaigns/campaignRunner';
import { ConfigCampaignRuns } from '../daemon/campaigns/configCampaignRuns';
import { checkCampaignCsv } from '../daemon/campaigns/csvCheck';
import { JsonLogger } from '../daemon/jsonLogger';
import { Redactor } from '../daemon/redactor';
import { configSecrets } from '../daemon/workerCommand';
import { parseFlags } from '../settings/parseFlags';

/**
 * `cloudtel campaign run --config FILE --name NAME`: one run of a config campaign now, by
 * the worker's own runner, so it is the run a cron tick would start: its name, settings,
 * callback URLs and ledger record, which a running worker then resumes, receives and forwards.
 */
export async function configRunCommand(argv: string[]): Promise<number> {
	let values;
	try {
		values = parseFlags(argv, { config: { type: 'string' }, name: { type: 'string' } });
	} catch (error) {
		throw new UsageError(
			`${(error as Error).message} (with --config, campaign run takes only --config FILE --name NAME)`,
		);
	}
	const file = values.config!;
	const config = loadWorkerConfig(file);
	const names = config.campaigns.map((c) => c.name);
	const list = names.length > 0 ? `its campaigns: ${names.join(', ')}` : 'it has no campaigns';
	if (values.name === undefined)
		throw new UsageError(`give --name, the config campaign to run now (${file}: ${list})`);
	const campaign = config.campaigns.find((c) => c.name === values.name);
	if (!campaign)
		throw new UsageError(`${file} has no campaign named ${JSON.stringify(values.name)}; ${list}`);
	const problems = await checkCampaignCsv(campaign, config.campaigns.indexOf(campaign));
	if (problems.length > 0) throw new ConfigError(file, problems);

	const location = dbLocation(config.db, 'db');
	const ledger = await openLedger(location);
	const store = await openDaemonStore(location, ledger);
	const controller = new AbortController();
	const stop = () => controller.abort();
	try {
		// One run of a campaign at a time, as the cron's tick has it: two would race for the same people.
		const going = (await store.unfinishedRuns()).find((r) => r.campaign === campaign.name);
		if (going)
			throw new FatalError(
				`${campaign.name}'s run ${going.run} is not finished (started ${new Date(going.startedAt).toISOString()}): a worker on this ledger sends it, or resumes it when it starts; see cloudtel campaign status --name ${going.run}`,
			);
		// The worker's log lines, on stderr: stdout keeps the one line a script reads.
		const log = new JsonLogger(
			(line) => process.stderr.write(line),
			new Redactor(configSecrets(config)),
			{},
			config.log,
		);
		// A tick's own second, as the cron gives it.
		const run = runName(campaign.name, new Date(Math.floor(Date.now() / 1000) * 1000));
		const runner = new ConfigCampaignRuns(
			// Its events queue in the store; a running worker's outbox sends them.
			new CampaignRunner({ config, events: new CampaignEvents(config, store) }),
			store,
			log.child({ part: 'campaigns' }),
		);
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
		const end = await runner.run(campaign, run, controller.signal);
		const next =
			end === 'interrupted'
				? `; a worker on this ledger resumes it when it starts`
				: `; see cloudtel campaign status --name ${run}`;
		process.stdout.write(`${run}: ${end}${next}\n`);
		return end === 'finished'
			? ExitCodes.Finished
			: end === 'interrupted'
				? ExitCodes.Interrupted
				: ExitCodes.Fatal;
	} finally {
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
		await store.close();
		await ledger.close();
	}
}
