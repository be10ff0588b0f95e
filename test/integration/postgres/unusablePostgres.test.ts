import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { newDatabase, sql } from '../../support/postgres/database';
import { ensureBuilt, freePort, writeConfig } from '../daemon/harness';
import { cli, tempDir, withSandbox } from '../worker/harness';

// Apart from cliOnPostgres.test.ts: files run side by side, each well within 60 s.
let sandbox: RunningSandbox;
let db: string;
beforeAll(async () => {
	await ensureBuilt();
	sandbox = await withSandbox();
	db = await newDatabase('unusable');
}, 120_000);
afterAll(async () => sandbox?.close());

describe('a Postgres that cannot be used: one line, exit 1', () => {
	const run = (url: string, extra: Record<string, string> = {}) =>
		cli(['campaign', 'status', '--db', url, '--name', 'x'], extra);
	const oneLine = (stderr: string) => {
		expect(stderr.trim().split('\n')).toHaveLength(1);
		expect(stderr).not.toMatch(/\n\s+at /);
	};

	it('names a malformed URL', async () => {
		const r = await run('postgres://user@:5432/nodb');
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/--db: not a valid Postgres URL \(expected postgres:\/\/USER/);
		oneLine(r.stderr);
	});

	it('says the connection was refused, without the password', async () => {
		const port = await freePort();
		const r = await run(`postgresql://app:s3cret-pw@127.0.0.1:${port}/cloudtel`);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			new RegExp(
				`cannot connect to Postgres postgresql://app@127\\.0\\.0\\.1:${port}/cloudtel: connection refused`,
			),
		);
		expect(r.stderr).not.toContain('s3cret-pw');
		oneLine(r.stderr);
	});

	it('says the login was refused, taking the password from PGPASSWORD', async () => {
		const url = new URL(db);
		url.password = '';
		const r = await run(url.toString(), { PGPASSWORD: 'wrong-password' });
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/refused the login: password authentication failed for user "postgres"/,
		);
		oneLine(r.stderr);
	});

	it('says a database does not exist', async () => {
		const url = new URL(db);
		url.pathname = '/no_such_db';
		const r = await run(url.toString());
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/database "no_such_db" does not exist; create it first/);
		oneLine(r.stderr);
	});

	it('says which rights are missing', async () => {
		const fresh = await newDatabase('rights');
		const run = (url: string) => cli(['campaign', 'pause', '--db', url, '--name', 'x']);
		await sql(
			fresh,
			`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'reader') THEN CREATE ROLE reader LOGIN PASSWORD 'reader-pw'; END IF; END $$`,
		);
		const url = new URL(fresh);
		url.username = 'reader';
		url.password = 'reader-pw';
		const r = await run(url.toString());
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/the user lacks the rights cloudtel needs \(permission denied for schema public\)/,
		);
		oneLine(r.stderr);
	});

	it('stops a worker that finds a schema newer than itself', async () => {
		const fresh = await newDatabase('newer');
		// A command that may write makes the schema; status and report only read.
		expect((await cli(['campaign', 'pause', '--db', fresh, '--name', 'x'])).stderr).toMatch(
			/no campaign named x/,
		);
		await sql(fresh, 'INSERT INTO cloudtel_schema (version, applied_at) VALUES (999, 0)');
		const dir = tempDir();
		const config = writeConfig(dir, {
			provider: {
				baseUrl: sandbox.url,
				accountSid: sandbox.demo.AccountSid,
				authToken: sandbox.demo.AuthToken,
			},
			db: fresh,
			server: {
				publicUrl: 'http://127.0.0.1:1',
				port: 0,
				host: '127.0.0.1',
				secret: 'callback-secret-0123456789',
			},
		});
		const r = await cli(['worker', '--config', config]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/holds cloudtel schema 999, newer than this cloudtel knows \(\d+\): upgrade cloudtel on this machine/,
		);
		oneLine(r.stderr);
	});
});
