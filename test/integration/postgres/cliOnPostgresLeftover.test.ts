import { describe, expect, it } from 'vitest';
import { sql } from '../../support/postgres/database';
import { cliOnPostgres } from './cliOnPostgresRig';
import {
	cli,
	envFor,
	numbersCsv,
	sandboxMessages,
	startCli,
	summaryOf,
	tempDir,
	waitFor,
	writeCsv,
} from '../worker/harness';

const rig = cliOnPostgres();

describe('campaign commands on Postgres: a run left behind, a typo, a delete', () => {
	it('cancels a campaign a run left behind: its rows on their way become uncertain and are listed, every one', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(50));
		const env = { ...envFor(rig.sandbox), CLOUDTEL_DB: rig.db };
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi',
			'--property',
			rig.sandbox.demo.PropertySid,
			'--name',
			'pg2',
		];
		const dry = await cli([...args, '--dry-run'], env);
		expect(dry.code, dry.stderr).toBe(0);
		// A dry run writes nothing, even to Postgres.
		expect(await sql(rig.db, `SELECT name FROM campaigns WHERE name = 'pg2'`)).toEqual([]);
		const run = startCli([...args, '--rate', '5', '--batch-size', '1'], env);
		await waitFor(async () =>
			(await sandboxMessages(rig.sandbox)).some((m) => m.ExternalId?.startsWith('pg2:')),
		);
		run.child.kill('SIGKILL');
		await run.done;
		// As if the run had died with two rows on their way.
		await sql(
			rig.db,
			`INSERT INTO submissions (campaign, chunk, first, last, at) VALUES ('pg2', 1, 40, 41, 0)`,
		);
		const cancel = await cli(['campaign', 'cancel', '--db', rig.db, '--name', 'pg2']);
		// The killed run may have had a chunk of its own on its way too.
		const said =
			/cancelled campaign pg2: (\d+) rows will not be sent; (\d+) rows a stopped run was submitting are uncertain/.exec(
				cancel.stdout,
			);
		expect(said, cancel.stdout + cancel.stderr).not.toBeNull();
		const status = JSON.parse(
			(await cli(['campaign', 'status', '--db', rig.db, '--name', 'pg2', '--json'])).stdout,
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
		const env = { ...envFor(rig.sandbox), CLOUDTEL_DB: rig.db };
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--property',
			rig.sandbox.demo.PropertySid,
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
		expect((await cli(['campaign', 'delete', '--db', rig.db, '--name', 'pg3'])).stderr).toMatch(
			/has sent 10 messages .*--force/,
		);
		const forced = await cli(['campaign', 'delete', '--db', rig.db, '--name', 'pg3', '--force']);
		expect(forced.code, forced.stderr).toBe(0);
		expect(
			await sql(
				rig.db,
				`SELECT (SELECT COUNT(*) FROM campaigns WHERE name = 'pg3')::int AS c, (SELECT COUNT(*) FROM recipients WHERE campaign = 'pg3')::int AS r`,
			),
		).toEqual([{ c: 0, r: 0 }]);
	});
});
