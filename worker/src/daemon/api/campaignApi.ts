import type { FastifyInstance } from 'fastify';
import type { WorkerConfig } from '../../config/workerConfigSchema';
import type { Ledger } from '../../ledger/ledger';
import type { ApiCampaignStore } from '../../storage/apiCampaignStore';
import type { DbLocation } from '../../storage/dbLocation';
import { openApiCampaignStore } from '../../storage/openApiCampaignStore';
import type { JsonLogger } from '../jsonLogger';
import { apiCampaignDir } from './apiCampaignFiles';
import { ApiCampaignRunner } from './apiCampaignRunner';
import { ApiCampaigns } from './apiCampaigns';
import { campaignApiRoutes } from './campaignApiRoutes';

/** The largest CSV one upload may be, unless the config says otherwise. */
export const DEFAULT_MAX_CSV_BYTES = 64 * 1024 * 1024;

/**
 * The campaign API of one worker: its store, the runner that sends started campaigns, and
 * the routes (a fastify plugin for the server to mount under /api, behind `token`).
 */
export class CampaignApi {
	private constructor(
		readonly store: ApiCampaignStore,
		readonly runner: ApiCampaignRunner,
		readonly campaigns: ApiCampaigns,
		private readonly options: { token: string; maxCsvBytes: number; log: JsonLogger },
	) {}

	static async open(config: WorkerConfig, location: DbLocation, ledger: Ledger, log: JsonLogger, token: string, sendingMayGo: () => boolean = () => true, maxCsvBytes = DEFAULT_MAX_CSV_BYTES): Promise<CampaignApi> {
		const store = await openApiCampaignStore(location, ledger);
		const dir = apiCampaignDir(location);
		const runner = new ApiCampaignRunner(config, store, dir, log, sendingMayGo);
		return new CampaignApi(store, runner, new ApiCampaigns(store, ledger, runner, dir), { token, maxCsvBytes, log });
	}

	/** The routes, for `app.register(api.routes, { prefix: '/api' })`. */
	readonly routes = async (app: FastifyInstance): Promise<void> => campaignApiRoutes(app, { campaigns: this.campaigns, ...this.options });

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
