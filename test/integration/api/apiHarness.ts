import Fastify, { type FastifyInstance } from 'fastify';
import type { RunningSandbox } from '../../../sandbox/src';
import { workerConfigSchema } from '../../../worker/src/config/workerConfigSchema';
import { CampaignApi } from '../../../worker/src/daemon/api/campaignApi';
import type { CampaignEvents } from '../../../worker/src/daemon/events/campaignEvents';
import { apiRoutes } from '../../../worker/src/daemon/http/apiRoutes';
import { RefusalLog } from '../../../worker/src/daemon/http/refusalLog';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import type { Ledger } from '../../../worker/src/storage/ledger';
import type { DbLocation } from '../../../worker/src/storage/dbLocation';
import { openLedger } from '../../../worker/src/storage/openStores';

export const API_TOKEN = 'api-token-0123456789abcdef';

/** The campaign API on a fastify of its own (the worker's server mounts the same plugin), over real HTTP. */
export class ApiUnderTest {
	private constructor(
		/** The log lines of the API and its runner. */
		readonly lines: string[],
		readonly url: string,
		readonly api: CampaignApi,
		readonly ledger: Ledger,
		private readonly app: FastifyInstance,
	) {}

	static async start(sandbox: RunningSandbox, location: DbLocation, options: { baseUrl?: string; maxCsvBytes?: number; events?: CampaignEvents } = {}): Promise<ApiUnderTest> {
		const config = workerConfigSchema.parse({
			provider: { baseUrl: options.baseUrl ?? sandbox.url, accountSid: sandbox.demo.AccountSid, authToken: sandbox.demo.AuthToken },
			db: location.kind === 'sqlite' ? location.path : location.url,
			server: { publicUrl: 'http://127.0.0.1:9', secret: 'callback-secret-0123456789' },
		});
		const ledger = await openLedger(location);
		const lines: string[] = [];
		const log = new JsonLogger((l) => lines.push(l));
		const api = await CampaignApi.open(config, location, ledger, log, { maxCsvBytes: options.maxCsvBytes, events: options.events });
		const app = Fastify({ logger: false });
		// Mounted as the worker's server mounts it: under /api, behind the token.
		await app.register(apiRoutes({ token: API_TOKEN, routes: [api.routes] }, new RefusalLog(log)), { prefix: '/api' });
		await app.listen({ port: 0, host: '127.0.0.1' });
		const address = app.server.address() as { port: number };
		api.start();
		return new ApiUnderTest(lines, `http://127.0.0.1:${address.port}`, api, ledger, app);
	}

	async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
		const init: RequestInit = { method, headers: { authorization: `Bearer ${API_TOKEN}`, ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers } };
		if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
		const res = await fetch(this.url + path, init);
		const text = await res.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: res.status, body: parsed, headers: res.headers };
	}

	async close(): Promise<void> {
		await this.app.close();
		await this.api.close();
		await this.ledger.close();
	}
}
