import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../sandbox/src';
import type { DbLocation } from '../../../worker/src/storage/dbLocation';
import type { Cleanup } from '../../support/cleanup';
import { storeIdle } from '../../support/storeIdle';
import { API_TOKEN } from './apiToken';
import type { StoreBackend } from '../../support/storeBackends';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';

export { API_TOKEN };
export const API_SECRET = 'worker-api-callback-secret-01';

export interface ApiAnswer {
	status: number;
	body: any;
	headers: Headers;
}

/** A `cloudtel worker` with its campaign API on, sending through its own sandbox: the way n8n's Campaign node reaches it. */
export interface ApiWorkerRig {
	sandbox: RunningSandbox;
	driver: SandboxDriver;
	location: DbLocation;
	/** The location as the CLI's `--db` takes it. */
	db: string;
	url: string;
	/**
	 * One request to `/api<path>`: an object body as JSON, a string as `type` (a CSV, say).
	 * `token` is the Bearer token sent, the worker's unless given.
	 */
	call(
		method: string,
		path: string,
		body?: unknown,
		options?: { token?: string; type?: string },
	): Promise<ApiAnswer>;
	/** Starts the worker; `alone`: in one process (no supervisor), so that a SIGKILL leaves no copy holding the port. */
	start(alone?: boolean): Promise<WorkerProcess>;
	/** The store holds nothing left to send: every callback processed, no forward pending or under way. */
	idle(): Promise<boolean>;
}

/** One request to `url` + path, as ApiWorkerRig.call makes it. */
function apiCall(url: string): ApiWorkerRig['call'] {
	return async (method, path, body, { token = API_TOKEN, type = 'application/json' } = {}) => {
		const res = await fetch(url + path, {
			method,
			headers: {
				authorization: `Bearer ${token}`,
				...(body !== undefined ? { 'content-type': type } : {}),
			},
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		});
		return { status: res.status, body: (await res.json()) as any, headers: res.headers };
	};
}

type RigOptions = {
	sandbox?: SandboxOptions;
	apiToken?: string | null;
	/** A function of the sandbox for what needs its IDs (a configured campaign's property). */
	config?: Record<string, unknown> | ((sandbox: RunningSandbox) => Record<string, unknown>);
};

/** The sandbox and the store of a rig, and a worker's config for them, each on a port of its own. */
async function rigParts(backend: StoreBackend, cleanup: Cleanup, options: RigOptions) {
	await ensureBuilt();
	const sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000, ...options.sandbox });
	cleanup.push(() => sandbox.close());
	const location = backend.location();
	const db = location.kind === 'sqlite' ? location.path : location.url;
	const token = options.apiToken === undefined ? API_TOKEN : options.apiToken;
	const env = {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
	};
	/** A worker's config in a folder of its own, and its API's URL. */
	const workerConfig = async () => {
		const port = await freePort();
		const config = writeConfig(tempDir(), {
			db,
			server: {
				publicUrl: `http://127.0.0.1:${port}`,
				port,
				host: '127.0.0.1',
				secret: API_SECRET,
				...(token === null ? {} : { apiToken: token }),
			},
			// Forwards retried within a test's patience.
			outbox: { backoffMs: 50, maxBackoffMs: 200 },
			// The tests' receivers of events listen here.
			outbound: { allow: ['127.0.0.1'] },
			...(typeof options.config === 'function' ? options.config(sandbox) : options.config),
		});
		return { config, url: `http://127.0.0.1:${port}/api` };
	};
	return { sandbox, location, db, env, workerConfig };
}

/**
 * Sets one up; `cleanup` gets what stops it (the sandbox, each worker started). `apiToken`
 * null starts the worker with the API off; `config`: more of the worker's config (`events`, say).
 */
export async function apiWorkerRig(
	backend: StoreBackend,
	cleanup: Cleanup,
	options: RigOptions = {},
): Promise<ApiWorkerRig> {
	const { sandbox, location, db, env, workerConfig } = await rigParts(backend, cleanup, options);
	const { config, url } = await workerConfig();
	return {
		sandbox,
		driver: new SandboxDriver(sandbox),
		location,
		db,
		url,
		call: apiCall(url),
		idle: () => storeIdle(location),
		async start(alone = false) {
			const worker = await WorkerProcess.start(config, {
				...env,
				...(alone ? { CLOUDTEL_WORKER_SUPERVISOR: '0' } : {}),
			});
			cleanup.push(() => worker.stop('SIGKILL'));
			return worker;
		},
	};
}

/** Workers started on one sandbox and one store (Postgres: one campaign sent by all), each with its API. */
export interface ApiWorkersRig {
	sandbox: RunningSandbox;
	driver: SandboxDriver;
	workers: WorkerProcess[];
	/** ApiWorkerRig.call, to the `i`-th worker. */
	call(i: number, ...request: Parameters<ApiWorkerRig['call']>): Promise<ApiAnswer>;
}

/** `count` workers as apiWorkerRig sets one up, started, sharing its sandbox and store. */
export async function apiWorkers(
	backend: StoreBackend,
	cleanup: Cleanup,
	count: number,
	options: RigOptions = {},
): Promise<ApiWorkersRig> {
	const { sandbox, env, workerConfig } = await rigParts(backend, cleanup, options);
	const workers: WorkerProcess[] = [];
	const calls: ApiWorkerRig['call'][] = [];
	for (let i = 0; i < count; i++) {
		const { config, url } = await workerConfig();
		const worker = await WorkerProcess.start(config, env);
		cleanup.push(() => worker.stop('SIGKILL'));
		workers.push(worker);
		calls.push(apiCall(url));
	}
	return {
		sandbox,
		driver: new SandboxDriver(sandbox),
		workers,
		call: (i, ...request) => calls[i](...request),
	};
}
