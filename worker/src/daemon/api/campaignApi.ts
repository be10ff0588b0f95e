import type { FastifyInstance } from 'fastify';
import type { Ledger } from '../../storage/ledger';
import type { ApiCampaignStore } from '../../storage/apiCampaignStore';
import type { DbLocation } from '../../storage/dbLocation';
import { openApiCampaignStore } from '../../storage/openApiCampaignStore';
import type { CampaignRunner } from '../campaigns/campaignRunner';
import type { JsonLogger } from '../jsonLogger';
import { apiCampaignDir, removeRecipientCopies } from './apiCampaignFiles';
import { ApiCampaignLoop } from './apiCampaignLoop';
import { ApiCampaigns } from './apiCampaigns';
import { campaignRows } from './recipientRows';
import type { CsvSource } from '../../csv/openCsv';
import { campaignApiRoutes } from './campaignApiRoutes';

/** The largest CSV one upload may be, unless the config says otherwise. */
export const DEFAULT_MAX_CSV_BYTES = 64 * 1024 * 1024;

/**
 * The campaign API of one worker: its store, the loop that sends started campaigns (through
 * the worker's one CampaignRunner), and
 * the routes (a fastify plugin the server mounts under /api, behind `server.apiToken`).
 */
export class CampaignApi {
	private constructor(
		readonly store: ApiCampaignStore,
		readonly runner: ApiCampaignLoop,
		readonly campaigns: ApiCampaigns,
		/** Where an uploaded CSV waits while it is read (apiCampaignFiles.ts). */
		readonly dir: string,
		private readonly options: { maxCsvBytes: number; log: JsonLogger },
	) {}

	static async open(
		campaignRunner: CampaignRunner,
		location: DbLocation,
		ledger: Ledger,
		log: JsonLogger,
		options: { maxCsvBytes?: number } = {},
	): Promise<CampaignApi> {
		const { config, events } = campaignRunner;
		const store = await openApiCampaignStore(location, ledger);
		const dir = apiCampaignDir(location);
		await removeRecipientCopies(dir);
		const runner = new ApiCampaignLoop(campaignRunner, store, dir, log);
		// Replies and opt-outs to an API campaign's messages go to its own events URL.
		// (Looked up only where the API is on: a worker without it answers replies as before.)
		if (config.server.apiToken !== undefined) {
			events?.lookUpCampaignUrls(async (name) => (await store.campaign(name))?.settings.events);
			events?.lookUpCampaignSecrets(
				async (name) => (await store.campaign(name))?.settings.signingSecret,
			);
		}
		return new CampaignApi(
			store,
			runner,
			new ApiCampaigns(store, ledger, runner, dir, events, {
				outboundAllow: config.outbound.allow,
				linkBase: config.links.baseUrl,
				configCampaigns: config.campaigns.map((c) => c.name),
				registeredSenderIds: config.senderIds.registered,
				currency: config.currency,
				pricePerSegment: config.limits?.pricePerSegment,
			}),
			dir,
			{ maxCsvBytes: options.maxCsvBytes ?? DEFAULT_MAX_CSV_BYTES, log },
		);
	}

	/** The routes, for the worker's server to mount under /api behind the token (http/apiRoutes.ts). */
	readonly routes = async (app: FastifyInstance): Promise<void> =>
		campaignApiRoutes(app, { campaigns: this.campaigns, dir: this.dir, ...this.options });

	/** An API campaign's rows, read from its pages while it keeps them; undefined for another name. */
	rowsOf(name: string): Promise<(() => Promise<CsvSource>) | undefined> {
		return campaignRows(this.store)(name);
	}

	/** Takes up the campaigns left started, and those started through other workers. */
	start(): void {
		this.runner.start();
	}

	/** Runs stop after their batches in flight; they are taken up again at the next start. */
	async stop(): Promise<void> {
		await this.runner.stop();
	}

	async close(): Promise<void> {
		await this.runner.stop();
		await this.store.close();
	}
}
