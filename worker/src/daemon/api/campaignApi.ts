import type { FastifyInstance } from 'fastify';
import type { WorkerConfig } from '../../config/workerConfigSchema';
import type { Ledger } from '../../storage/ledger';
import type { ApiCampaignStore } from '../../storage/apiCampaignStore';
import type { DbLocation } from '../../storage/dbLocation';
import { openApiCampaignStore } from '../../storage/openApiCampaignStore';
import type { CampaignEvents } from '../callbacks/5-events/campaignEvents';
import type { JsonLogger } from '../jsonLogger';
import { apiCampaignDir, removeRecipientCopies } from './apiCampaignFiles';
import { ApiCampaignRunner } from './apiCampaignRunner';
import { ApiCampaigns } from './apiCampaigns';
import { campaignRows } from './recipientRows';
import type { CsvSource } from '../../csv/openCsv';
import { campaignApiRoutes } from './campaignApiRoutes';

/** The largest CSV one upload may be, unless the config says otherwise. */
export const DEFAULT_MAX_CSV_BYTES = 64 * 1024 * 1024;

/**
 * The campaign API of one worker: its store, the runner that sends started campaigns, and
 * the routes (a fastify plugin the server mounts under /api, behind `server.apiToken`).
 */
export class CampaignApi {
	private constructor(
		readonly store: ApiCampaignStore,
		readonly runner: ApiCampaignRunner,
		readonly campaigns: ApiCampaigns,
		/** Where an uploaded CSV waits while it is read (apiCampaignFiles.ts). */
		readonly dir: string,
		private readonly options: { maxCsvBytes: number; log: JsonLogger },
	) {}

	static async open(
		config: WorkerConfig,
		location: DbLocation,
		ledger: Ledger,
		log: JsonLogger,
		options: { sendingMayGo?: () => boolean; maxCsvBytes?: number; events?: CampaignEvents } = {},
	): Promise<CampaignApi> {
		const store = await openApiCampaignStore(location, ledger);
		const dir = apiCampaignDir(location);
		await removeRecipientCopies(dir);
		const runner = new ApiCampaignRunner(
			config,
			store,
			dir,
			log,
			options.sendingMayGo,
			options.events,
		);
		// Replies and opt-outs to an API campaign's messages go to its own events URL.
		// (Looked up only where the API is on: a worker without it answers replies as before.)
		if (config.server.apiToken !== undefined) {
			options.events?.lookUpCampaignUrls(
				async (name) => (await store.campaign(name))?.settings.events,
			);
			options.events?.lookUpCampaignSecrets(
				async (name) => (await store.campaign(name))?.settings.signingSecret,
			);
		}
		return new CampaignApi(
			store,
			runner,
			new ApiCampaigns(store, ledger, runner, dir, options.events, {
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
