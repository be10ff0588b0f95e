import Fastify, { type FastifyInstance } from 'fastify';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { workerConfigSchema } from '../../../worker/src/config/workerConfigSchema';
import { CampaignEvents } from '../../../worker/src/daemon/callbacks/5-events/campaignEvents';
import { EventForwarder } from '../../../worker/src/daemon/callbacks/6-forward/eventForwarder';
import { ForwardOutbox } from '../../../worker/src/daemon/callbacks/6-forward/forwardOutbox';
import type { DaemonStore } from '../../../worker/src/storage/daemonStore';
import { CampaignRunner } from '../../../worker/src/daemon/campaigns/campaignRunner';
import { CampaignApi } from '../../../worker/src/daemon/api/campaignApi';
import { apiRoutes } from '../../../worker/src/daemon/http/apiRoutes';
import { httpErrorHandler } from '../../../worker/src/daemon/http/httpErrorHandler';
import { RefusalLog } from '../../../worker/src/daemon/http/refusalLog';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import type { Ledger } from '../../../worker/src/storage/ledger';
import type { DbLocation } from '../../../worker/src/storage/dbLocation';
import { openDaemonStore, openLedger } from '../../../worker/src/storage/openStores';
import { CallbackCatcher } from '../../support/callbackCatcher';
import type { Cleanup } from '../../support/cleanup';
import type { StoreBackend } from '../../support/storeBackends';
import { API_TOKEN } from './apiToken';

// Helpers for the API tests of either rig (ApiUnderTest below, or apiRig's worker). They live
// here, not in apiRig.ts: that imports daemon/harness, which builds the worker before a test
// file that imports it (a beforeAll), and the tests of ApiUnderTest alone need no build.

/** A receiver of the events (or callbacks) sent out, closed after the test. */
export async function startCatcher(cleanup: Cleanup): Promise<CallbackCatcher> {
	const catcher = await CallbackCatcher.start();
	cleanup.push(() => catcher.close());
	return catcher;
}

/**
 * `n` recipients numbered from `from`, each with `first_name` N<its number> and a `phone` of
 * `prefix` then that number, zero-padded to a whole mobile number (12 characters, as `+61491570101`).
 */
export function recipients(from: number, n: number, prefix = '+614915') {
	return Array.from({ length: n }, (_, i) => ({
		phone: `${prefix}${String(from + i).padStart(12 - prefix.length, '0')}`,
		first_name: `N${from + i}`,
	}));
}

export { API_TOKEN };

/** `outboundAllow`: config outbound.allow; by default 127.0.0.1, where the tests' receivers listen. */
type ApiOptions = {
	baseUrl?: string;
	maxCsvBytes?: number;
	events?: CampaignEvents;
	outboundAllow?: string[];
	campaigns?: Record<string, unknown>[];
	/** Config senderIds.registered. */
	registeredSenderIds?: string[];
	/** More of the worker's config (`currency`, `limits`, say). */
	config?: Record<string, unknown>;
	/** False: the API serves, its runner runs nothing until `api.start()` (a reload's new copy, before it takes over). */
	run?: boolean;
};

/** The campaign API on a fastify of its own (the worker's server mounts the same plugin), over real HTTP. */
export class ApiUnderTest {
	private constructor(
		/** The log lines of the API and its runner. */
		readonly lines: string[],
		readonly url: string,
		/** The sandbox the API sends through. */
		readonly sandbox: RunningSandbox,
		readonly api: CampaignApi,
		readonly ledger: Ledger,
		private readonly app: FastifyInstance,
	) {}

	/** Over a sandbox of its own, on `backend`'s database; `cleanup` gets what closes both. */
	static async startWithSandbox(
		backend: StoreBackend,
		cleanup: Cleanup,
		options: ApiOptions = {},
	): Promise<ApiUnderTest> {
		const sandbox = await startSandbox({ port: 0 });
		cleanup.push(() => sandbox.close());
		const underTest = await ApiUnderTest.start(sandbox, backend.location(), options);
		cleanup.push(() => underTest.close());
		return underTest;
	}

	/**
	 * With the worker's outbox on the same database, sending campaign events: each caught by
	 * `receiver`, which answers with `statuses` in turn (the last one from then on).
	 */
	static async startWithEvents(
		sandbox: RunningSandbox,
		location: DbLocation,
		cleanup: Cleanup,
		statuses: number[] = [200],
	): Promise<{ a: ApiUnderTest; receiver: CallbackCatcher; store: DaemonStore }> {
		const receiver = await startCatcher(cleanup);
		receiver.statuses = statuses;
		const store = await openDaemonStore(location);
		const log = new JsonLogger(() => {});
		const outbox = new ForwardOutbox(
			store,
			{},
			{
				...workerConfigSchema.parse({
					provider: { baseUrl: sandbox.url, accountSid: 'AC', authToken: 't' },
					server: { publicUrl: 'http://127.0.0.1:9', secret: 'callback-secret-0123456789' },
				}).outbox,
				backoffMs: 50,
				maxBackoffMs: 200,
			},
			log,
			undefined,
			new EventForwarder({
				worker: () => undefined,
				campaignUrl: () => undefined,
				outboundAllow: () => ['127.0.0.1'],
			}),
		);
		const events = new CampaignEvents({ campaigns: [] }, store, () => outbox.kick());
		const a = await ApiUnderTest.start(sandbox, location, { events });
		outbox.start();
		cleanup.push(async () => {
			await a.close();
			await outbox.stop();
			await store.close();
		});
		return { a, receiver, store };
	}

	static async start(
		sandbox: RunningSandbox,
		location: DbLocation,
		options: ApiOptions = {},
	): Promise<ApiUnderTest> {
		const config = workerConfigSchema.parse({
			provider: {
				baseUrl: options.baseUrl ?? sandbox.url,
				accountSid: sandbox.demo.AccountSid,
				authToken: sandbox.demo.AuthToken,
			},
			db: location.kind === 'sqlite' ? location.path : location.url,
			server: { publicUrl: 'http://127.0.0.1:9', secret: 'callback-secret-0123456789' },
			outbound: { allow: options.outboundAllow ?? ['127.0.0.1'] },
			campaigns: options.campaigns ?? [],
			senderIds: { registered: options.registeredSenderIds ?? [] },
			...options.config,
		});
		const ledger = await openLedger(location);
		const lines: string[] = [];
		const log = new JsonLogger((l) => lines.push(l));
		const api = await CampaignApi.open(
			new CampaignRunner({ config, events: options.events }),
			location,
			ledger,
			log,
			{ maxCsvBytes: options.maxCsvBytes },
		);
		const app = Fastify({ logger: false });
		// Mounted as the worker's server mounts it: the one error handler at the root, the API under /api behind the token.
		app.setErrorHandler(
			httpErrorHandler({ log, errorLine: 'webhook error', fastifyRefusal: () => undefined }),
		);
		await app.register(apiRoutes({ token: API_TOKEN, routes: [api.routes] }, new RefusalLog(log)), {
			prefix: '/api',
		});
		await app.listen({ port: 0, host: '127.0.0.1' });
		const address = app.server.address() as { port: number };
		if (options.run !== false) api.start();
		return new ApiUnderTest(lines, `http://127.0.0.1:${address.port}`, sandbox, api, ledger, app);
	}

	async call(
		method: string,
		path: string,
		body?: unknown,
		headers: Record<string, string> = {},
	): Promise<{ status: number; body: any; headers: Headers }> {
		const init: RequestInit = {
			method,
			headers: {
				authorization: `Bearer ${API_TOKEN}`,
				...(body !== undefined && typeof body !== 'string'
					? { 'content-type': 'application/json' }
					: {}),
				...headers,
			},
		};
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
