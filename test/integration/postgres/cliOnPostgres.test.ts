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

describe('campaign commands on Postgres', () => {
	it('runs a campaign from CLOUDTEL_DB, and status, pause, resume and cancel act on it as on SQLite', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(300) + 'not-a-number,Bad\n');
		const env = { ...envFor(rig.sandbox), CLOUDTEL_DB: rig.db };
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			rig.sandbox.demo.PropertySid,
			'--name',
			'pg1',
			'--rate',
			'50',
		];
		const run = startCli(args, env);
		let sent = 0;
		await waitFor(
			async () =>
				(sent = (await sandboxMessages(rig.sandbox)).filter((m) =>
					m.ExternalId?.startsWith('pg1:'),
				).length) >= 40,
		);
		const paused = await cli(['campaign', 'pause', '--db', rig.db, '--name', 'pg1']);
		expect(paused.stdout, paused.stderr).toMatch(/paused campaign pg1: the run \(pid \d+\)/);
		const status = JSON.parse(
			(await cli(['campaign', 'status', '--name', 'pg1', '--json'], { CLOUDTEL_DB: rig.db }))
				.stdout,
		);
		expect(status).toMatchObject({
			name: 'pg1',
			paused: true,
			running: { pid: run.child.pid },
			total: 301,
		});
		expect((await cli(['campaign', 'resume', '--db', rig.db, '--name', 'pg1'])).code).toBe(0);
		const done = await run.done;
		expect(done.code, done.stderr).toBe(0);
		expect(summaryOf(done).rows).toMatchObject({
			accepted: 300,
			invalid: 1,
			pending: 0,
			submitting: 0,
		});
		expect(sent).toBeLessThan(300);
		const messages = (await sandboxMessages(rig.sandbox)).filter((m) =>
			m.ExternalId?.startsWith('pg1:'),
		);
		expect(new Set(messages.map((m) => m.To)).size).toBe(300);
		const after = JSON.parse(
			(await cli(['campaign', 'status', '--db', rig.db, '--name', 'pg1', '--json'])).stdout,
		);
		expect(after).toMatchObject({
			phase: 'finished',
			running: null,
			rows: { accepted: 300, invalid: 1 },
			firstErrors: [{ line: 302 }],
		});
		const cancel = await cli(['campaign', 'cancel', '--db', rig.db, '--name', 'pg1']);
		expect(cancel.code).toBe(1);
		expect(cancel.stderr).toMatch(/campaign pg1 has finished: there is nothing to cancel/);
		// The same rows, read by a person with psql.
		expect(
			await sql(
				rig.db,
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
		const env = { ...envFor(rig.sandbox), CLOUDTEL_DB: rig.db };
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			rig.sandbox.demo.PropertySid,
			'--name',
			'pgedit',
		];
		expect((await cli(args, env)).code).toBe(0);
		expect(
			await sql(
				rig.db,
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
});
