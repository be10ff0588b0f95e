import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { dbLocation } from '../../../worker/src/storage/dbLocation';
import { openLedger } from '../../../worker/src/storage/openStores';
import { newDatabase, sql } from '../../support/postgres/database';
import { ensureBuilt } from '../daemon/harness';
import {
	cli,
	envFor,
	numbersCsv,
	summaryOf,
	tempDir,
	withSandbox,
	writeCsv,
} from '../worker/harness';

let sandbox: RunningSandbox;
let db: string;
/** A role of this run only: roles belong to the whole server, which other test files share. */
const reader = `reader_${randomBytes(4).toString('hex')}`;

/** The URL of `url`'s database as a role that may only SELECT. */
async function readOnlyUrl(url: string): Promise<string> {
	const name = new URL(url).pathname.slice(1);
	await sql(
		url,
		`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${reader}') THEN CREATE ROLE ${reader} LOGIN PASSWORD 'reader-pw'; END IF; END $$`,
	);
	await sql(url, `GRANT CONNECT ON DATABASE ${name} TO ${reader}`);
	await sql(url, `GRANT USAGE ON SCHEMA public TO ${reader}`);
	await sql(url, `GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${reader}`);
	const as = new URL(url);
	as.username = reader;
	as.password = 'reader-pw';
	return as.toString();
}

/** Everything cloudtel keeps, as one text: equal before and after means nothing was written. */
async function everything(url: string): Promise<string> {
	const tables = await sql<{ t: string }>(
		url,
		`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
	);
	const out: string[] = [];
	for (const { t } of tables)
		out.push(t, JSON.stringify(await sql(url, `SELECT * FROM ${t} ORDER BY 1, 2`)));
	return out.join('\n');
}

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await withSandbox();
	db = await newDatabase('readonly');
	const dir = tempDir();
	const csv = writeCsv(dir, 'list.csv', numbersCsv(20) + 'not-a-number,Bad\n');
	const run = await cli(
		[
			'campaign',
			'run',
			'--db',
			db,
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.demo.PropertySid,
			'--name',
			'ro',
			'--rate',
			'0',
		],
		envFor(sandbox),
	);
	expect(run.code, run.stderr).toBe(0);
	expect(summaryOf(run).rows).toMatchObject({ accepted: 20, invalid: 1 });
}, 120_000);
afterAll(async () => sandbox?.close());

describe('campaign status and report on Postgres only read', () => {
	it('work as a role that may only SELECT, and change nothing', async () => {
		const url = await readOnlyUrl(db);
		const before = await everything(db);
		const status = await cli(['campaign', 'status', '--db', url, '--name', 'ro', '--json']);
		expect(status.code, status.stderr).toBe(0);
		expect(JSON.parse(status.stdout)).toMatchObject({
			name: 'ro',
			phase: 'finished',
			total: 21,
			rows: { accepted: 20, invalid: 1 },
			firstErrors: [{ line: 22 }],
		});
		const text = await cli(['campaign', 'status', '--db', url, '--name', 'ro']);
		expect(text.code, text.stderr).toBe(0);
		expect(text.stdout).toMatch(/^Campaign ro: finished, no run active/);
		const report = await cli(['campaign', 'report', '--db', url, '--name', 'ro', '--json']);
		expect(report.code, report.stderr).toBe(0);
		expect(JSON.parse(report.stdout)).toMatchObject({
			campaign: 'ro',
			funnel: { rows: 21, valid: 20, sent: 20 },
			awaitingReceipt: 20,
		});
		const html = join(tempDir(), 'ro.html');
		const page = await cli(['campaign', 'report', '--db', url, '--name', 'ro', '--html', html]);
		expect(page.code, page.stderr).toBe(0);
		expect(readFileSync(html, 'utf8')).toContain('ro');
		const unknown = await cli(['campaign', 'report', '--db', url, '--name', 'nope']);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toMatch(/no campaign named nope in postgres:\/\/reader_/);
		expect(await everything(db)).toBe(before);
	});

	it('read through transactions Postgres itself keeps from writing, whatever the role may do', async () => {
		const ledger = await openLedger(dbLocation(db), { readonly: true });
		try {
			expect((await ledger.campaign('ro'))?.paused).toBe(false);
			await expect(ledger.setPaused('ro', true)).rejects.toThrow(/read-only transaction/);
		} finally {
			await ledger.close();
		}
		expect(await sql(db, `SELECT paused FROM campaigns WHERE name = 'ro'`)).toEqual([
			{ paused: false },
		]);
	});

	it('create no tables in an empty database, and say there is nothing to read', async () => {
		const empty = await newDatabase('empty');
		for (const command of ['status', 'report']) {
			const r = await cli(['campaign', command, '--db', empty, '--name', 'ro']);
			expect(r.code, command).toBe(1);
			expect(r.stderr.trim().split('\n'), command).toHaveLength(1);
			expect(r.stderr, command).toMatch(
				/holds no cloudtel tables: no campaign has run there yet \(campaign status and report only read\)/,
			);
		}
		expect(await sql(empty, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).toEqual(
			[],
		);
	});

	it('do not migrate an older schema: they say how to upgrade it', async () => {
		const older = await newDatabase('older');
		// As the release (schema 5) left it: what later schemas add is not there yet.
		await sql(
			older,
			readFileSync(join(__dirname, '../../fixtures/ledgerRelease/postgres.sql'), 'utf8'),
		);
		const before = await everything(older);
		const r = await cli(['campaign', 'status', '--db', older, '--name', 'spring']);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/holds cloudtel schema 5, older than this cloudtel's \(\d+\): start `cloudtel worker` or a `cloudtel campaign run` on it once to upgrade it \(campaign status and report only read\)/,
		);
		expect(await everything(older)).toBe(before);
	});
});
