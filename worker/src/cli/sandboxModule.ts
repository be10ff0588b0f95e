import { join } from 'node:path';

/**
 * The sandbox, loaded only by `cloudtel sandbox` and `cloudtel demo`: the one place the
 * CLI may start it. The campaign engine still reaches it only over HTTP.
 */
export interface SandboxModule {
	startSandbox(options: {
		port?: number;
		host?: string;
		rateLimit?: number;
		failRate?: number;
		latencyMs?: number;
		receiptDelayMs?: number;
	}): Promise<{
		url: string;
		demo: { AccountSid: string; AuthToken: string; PropertySid: string };
		close(): Promise<void>;
	}>;
	runSandboxCli(argv: string[]): Promise<number>;
}

/**
 * The sandbox's compiled files travel in the worker's own dist (the build copies them to
 * worker/dist/sandbox), so the installed package carries them: from
 * dist/worker/src/cli they are at dist/sandbox/src. Run from the sources (tests), the
 * same path leads to the repository's sandbox/src.
 */
export const SANDBOX_PATH = join(__dirname, '..', '..', '..', 'sandbox', 'src');

export function loadSandbox(): SandboxModule {
	try {
		// Loaded lazily and untyped: nothing else in the worker may depend on the sandbox.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return require(SANDBOX_PATH) as SandboxModule;
	} catch (error) {
		throw new Error(
			`the sandbox is not built: run \`npm run build\` first (${(error as Error).message})`,
		);
	}
}
