import { join } from 'node:path';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/src';
import {
	freePort,
	SandboxDriver,
	tempDir,
	WorkerProcess,
	writeConfig,
} from '../integration/daemon/harness';
import { envFor } from '../integration/worker/harness';
import type { DbLocation } from '../../worker/src/storage/dbLocation';
import type { Cleanup } from './cleanup';
import type { StoreBackend } from './storeBackends';

export interface WorkerRig {
	sandbox: RunningSandbox;
	driver: SandboxDriver;
	/** The worker's folder: its config, and its SQLite store `worker.db` there. */
	dir: string;
	/** The store as `--db` takes it: the SQLite file's path or the postgres:// URL. */
	db: string;
	/** The same store, as the worker's own openers take it. */
	location: DbLocation;
	port: number;
	worker: WorkerProcess;
	/** `http://127.0.0.1:{port}/callbacks/{secret}`: receipts and replies go under it. */
	callbacks: string;
	/** The sandbox's credentials, as the worker and the CLI read them. */
	env: Record<string, string>;
}

/**
 * A sandbox and a worker started on it (in a folder of its own, on a free port, its store
 * on `backend`, SQLite without one), both stopped by `cleanup`; `config` completes the
 * worker's config.
 */
export async function workerRig(
	cleanup: Cleanup,
	options: {
		secret: string;
		backend?: StoreBackend;
		sandbox?: SandboxOptions;
		/** Given the worker's folder, for paths in it (a relative one is the working directory's), and its port. */
		config?: (dir: string, port: number) => Record<string, unknown>;
	},
): Promise<WorkerRig> {
	const sandbox = await startSandbox({ port: 0, ...options.sandbox });
	cleanup.push(() => sandbox.close());
	const dir = tempDir();
	const backend = options.backend?.location();
	const location: DbLocation =
		backend?.kind === 'postgres' ? backend : { kind: 'sqlite', path: join(dir, 'worker.db') };
	const db = location.kind === 'postgres' ? location.url : location.path;
	const port = await freePort();
	const config = writeConfig(dir, {
		db,
		server: {
			publicUrl: `http://127.0.0.1:${port}`,
			port,
			host: '127.0.0.1',
			secret: options.secret,
		},
		...options.config?.(dir, port),
	});
	const env = envFor(sandbox);
	const worker = await WorkerProcess.start(config, env);
	cleanup.push(() => worker.stop('SIGKILL'));
	const callbacks = `http://127.0.0.1:${port}/callbacks/${options.secret}`;
	const driver = new SandboxDriver(sandbox);
	return { sandbox, driver, dir, db, location, port, worker, callbacks, env };
}
