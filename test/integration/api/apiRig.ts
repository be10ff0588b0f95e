import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../sandbox/src';
import type { DbLocation } from '../../../worker/src/storage/dbLocation';
import type { Cleanup } from '../../support/cleanup';
import { storeIdle } from '../../support/storeIdle';
import type { StoreBackend } from '../../support/storeBackends';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';

export const API_TOKEN = 'worker-api-token-0123456789';
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

/**
 * Sets one up; `cleanup` gets what stops it (the sandbox, each worker started). `apiToken`
 * null starts the worker with the API off; `config`: more of the worker's config (`events`, say).
 */
export async function apiWorkerRig(
	backend: StoreBackend,
	cleanup: Cleanup,
	options: {
		sandbox?: SandboxOptions;
		apiToken?: string | null;
		/** A function of the sandbox for what needs its IDs (a configured campaign's property). */
		config?: Record<string, unknown> | ((sandbox: RunningSandbox) => Record<string, unknown>);
	} = {},
): Promise<ApiWorkerRig> {
	await ensureBuilt();
	const sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000, ...options.sandbox });
	cleanup.push(() => sandbox.close());
	const location = backend.location();
	const db = location.kind === 'sqlite' ? location.path : location.url;
	const port = await freePort();
	const token = options.apiToken === undefined ? API_TOKEN : options.apiToken;
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
	const env = {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
	};
	const url = `http://127.0.0.1:${port}/api`;
	return {
		sandbox,
		driver: new SandboxDriver(sandbox),
		location,
		db,
		url,
		async call(method, path, body, { token: bearer = API_TOKEN, type = 'application/json' } = {}) {
			const res = await fetch(url + path, {
				method,
				headers: {
					authorization: `Bearer ${bearer}`,
					...(body !== undefined ? { 'content-type': type } : {}),
				},
				body:
					body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
			});
			return { status: res.status, body: (await res.json()) as any, headers: res.headers };
		},
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
