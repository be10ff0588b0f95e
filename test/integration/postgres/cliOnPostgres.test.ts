import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { newDatabase, sql } from '../../support/postgres/database';
import { ensureBuilt } from '../daemon/harness';
import {
	cli,
	envFor,
	numbersCsv,
	sandboxMessages,
	startCli,
	summaryOf,
	tempDir,
	waitFor,
	withSandbox,
	writeCsv,
} from '../worker/harness';

let sandbox: RunningSandbox;
let db: string;
beforeAll(async () => {
	await ensureBuilt();
	sandbox = await withSandbox();
	db = await newDatabase('cli');
}, 120_000);
afterAll(async () => sandbox?.close());

describe('campaign commands on Postgres', () => {
	it('runs a campaign from CLOUDTEL_DB, and status, pause, resume and cancel act on it as on SQLite', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(300) + 'not-a-number,Bad\n');
		const env = { ...envFor(sandbox), CLOUDTEL_DB: db };
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.demo.PropertySid,
			'--name',
			'pg1',
			'--rate',
			'50',
		];
		const run = startCli(args, env);
		let sent = 0;
		await waitFor(
			async () =>
				(sent = (await sandboxMessages(sandbox)).filter((m) =>
					m.ExternalId?.startsWith('pg1:'),
				).length) >= 40,
		);
		const paused = await cli(['campaign', 'pause', '--db', db, '--name', 'pg1']);
		expect(paused.stdout, paused.stderr).toMatch(/paused campaign pg1: the run \(pid \d+\)/);
		const status = JSON.parse(
			(await cli(['campaign', 'status', '--name', 'pg1', '--json'], { CLOUDTEL_DB: db })).stdout,
		);
		expect(status).toMatchObject({
			name: 'pg1',
			paused: true,
			running: { pid: run.child.pid },
			total: 301,
		});
		expect((await cli(['campaign', 'resume', '--db', db, '--name', 'pg1'])).code).toBe(0);
		const done = await run.done;
		expect(done.code, done.stderr).toBe(0);
		expect(summaryOf(done).rows).toMatchObject({
			accepted: 300,
			invalid: 1,
			pending: 0,
			submitting: 0,
		});
		expect(sent).toBeLessThan(300);
		const messages = (await sandboxMessages(sandbox)).filter((m) =>
			m.ExternalId?.startsWith('pg1:'),
		);
		expect(new Set(messages.map((m) => m.To)).size).toBe(300);
		const after = JSON.parse(
			(await cli(['campaign', 'status', '--db', db, '--name', 'pg1', '--json'])).stdout,
		);
		expect(after).toMatchObject({
			phase: 'finished',
			running: null,
			rows: { accepted: 300, invalid: 1 },
			firstErrors: [{ line: 302 }],
		});
		const cancel = await cli(['campaign', 'cancel', '--db', db, '--name', 'pg1']);
		expect(cancel.code).toBe(1);
		expect(cancel.stderr).toMatch(/campaign pg1 has finished: there is nothing to cancel/);
		// The same rows, read by a person with psql.
		expect(
			await sql(
				db,
				`SELECT status, COUNT(*)::int AS n FROM recipients WHERE campaign = 'pg1' GROUP BY status ORDER BY status`,
			),
		).toEqual([
			{ status: 'accepted', n: 300 },
			{ status: 'invalid', n: 1 },
		]);
	});

	it('records what the import read, and refuses a resume whose list was edited after sending', async () => {
		const dir = tempDir();
		const list = numbersCsv(10, 700);
		const csv = writeCsv(dir, 'edited.csv', list);
		const env = { ...envFor(sandbox), CLOUDTEL_DB: db };
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.demo.PropertySid,
			'--name',
			'pgedit',
		];
		expect((await cli(args, env)).code).toBe(0);
		expect(
			await sql(
				db,
				`SELECT input_bytes::int AS bytes, input_size::int AS size FROM campaigns WHERE name = 'pgedit'`,
			),
		).toEqual([{ bytes: Buffer.byteLength(list), size: Buffer.byteLength(list) }]);
		writeCsv(dir, 'edited.csv', list.replace(',N703\n', ',Nell\n'));
		const r = await cli(args, env);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/campaign pgedit: .*edited\.csv has changed since it was imported .*, and 10 messages were sent from it: restore the file as it was to resume, or forget the campaign with `cloudtel campaign delete --force --name pgedit`/,
		);
	});

	it('cancels a campaign a run left behind: its rows on their way become uncertain and are listed, every one', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(50));
		const env = { ...envFor(sandbox), CLOUDTEL_DB: db };
		const dry = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi',
				'--property',
				sandbox.demo.PropertySid,
				'--name',
				'pg2',
				'--dry-run',
			],
			env,
		);
		expect(dry.code, dry.stderr).toBe(0);
		// A dry run writes nothing, even to Postgres.
		expect(await sql(db, `SELECT name FROM campaigns WHERE name = 'pg2'`)).toEqual([]);
		const run = startCli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi',
				'--property',
				sandbox.demo.PropertySid,
				'--name',
				'pg2',
				'--rate',
				'5',
				'--batch-size',
				'1',
			],
			env,
		);
		await waitFor(async () =>
			(await sandboxMessages(sandbox)).some((m) => m.ExternalId?.startsWith('pg2:')),
		);
		run.child.kill('SIGKILL');
		await run.done;
		// As if the run had died with two rows on their way.
		await sql(
			db,
			`INSERT INTO submissions (campaign, chunk, first, last, at) VALUES ('pg2', 1, 40, 41, 0)`,
		);
		const cancel = await cli(['campaign', 'cancel', '--db', db, '--name', 'pg2']);
		// The killed run may have had a chunk of its own on its way too.
		const said =
			/cancelled campaign pg2: (\d+) rows will not be sent; (\d+) rows a stopped run was submitting are uncertain/.exec(
				cancel.stdout,
			);
		expect(said, cancel.stdout + cancel.stderr).not.toBeNull();
		const status = JSON.parse(
			(await cli(['campaign', 'status', '--db', db, '--name', 'pg2', '--json'])).stdout,
		);
		expect(status.uncertainLines).toHaveLength(Number(said![2]));
		expect(status.uncertainLines).toEqual(expect.arrayContaining([40, 41]));
		expect(status.rows).toMatchObject({
			cancelled: Number(said![1]),
			uncertain: Number(said![2]),
			pending: 0,
			submitting: 0,
		});
		expect(status.phase).toBe('cancelled');
	});

	it('a typo run again with the fix starts the campaign again, and delete frees a name, with --force once sent', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(10));
		const env = { ...envFor(sandbox), CLOUDTEL_DB: db };
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--property',
			sandbox.demo.PropertySid,
			'--name',
			'pg3',
			'--rate',
			'0',
			'--text',
		];
		expect((await cli([...args, 'Hi {{Nmae}}'], env)).code).toBe(2);
		const fixed = await cli([...args, 'Hi {{Name}}'], env);
		expect(fixed.code, fixed.stderr).toBe(0);
		expect(summaryOf(fixed).rows).toMatchObject({ accepted: 10 });
		expect((await cli(['campaign', 'delete', '--db', db, '--name', 'pg3'])).stderr).toMatch(
			/has sent 10 messages .*--force/,
		);
		const forced = await cli(['campaign', 'delete', '--db', db, '--name', 'pg3', '--force']);
		expect(forced.code, forced.stderr).toBe(0);
		expect(
			await sql(
				db,
				`SELECT (SELECT COUNT(*) FROM campaigns WHERE name = 'pg3')::int AS c, (SELECT COUNT(*) FROM recipients WHERE campaign = 'pg3')::int AS r`,
			),
		).toEqual([{ c: 0, r: 0 }]);
	});
});
