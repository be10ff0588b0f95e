import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { runCampaign } from '../../support/runCampaign';
import { cli, tempDir, writeCsv } from '../worker/harness';

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
});

afterAll(() => sandbox?.close());

/**
 * A marketer reads "valid 4" in the dry run, then "Valid" in the report's funnel of the same
 * list: both must count the rows that go out (not invalid, not a duplicate, not opted out).
 * One backend: the figures are the ledger's counts, read alike on both.
 */
describe('the report funnel and the dry run agree on what is valid', () => {
	it('on one CSV with an invalid row, a duplicate and an opted-out number', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const ledger = new SqliteLedger(db);
		await ledger.addSuppression('+61491570104', 'STOP');
		await ledger.close();
		const csv = writeCsv(
			dir,
			'list.csv',
			'Phone,Name\n+61491570101,Ana\n+61491570102,Bo\nnot a number,Cy\n+61491570101,Ana again\n+61491570103,Di\n+61491570104,Ed\n+61491570105,Flo\n',
		);
		const run = (flags: string[]) =>
			runCampaign(sandbox, { csv, db, name: 'list', text: 'Hi {{Name}}', rate: '0', flags });
		const dry = await run(['--default-country', 'AU', '--dry-run']);
		expect(dry.code, dry.stderr).toBe(0);
		// The dry run prints its pending rows as "valid".
		const forecast = dry.events.find((e) => e.event === 'summary') as {
			rows: Record<string, number>;
		};
		expect(forecast.rows).toMatchObject({ pending: 4, invalid: 1, duplicate: 1, suppressed: 1 });

		const sent = await run(['--default-country', 'AU']);
		expect(sent.code, sent.stderr).toBe(0);
		const report = await cli(['campaign', 'report', '--db', db, '--name', 'list', '--json']);
		expect(report.code, report.stderr).toBe(0);
		expect(JSON.parse(report.stdout).funnel).toMatchObject({
			rows: 7,
			valid: forecast.rows.pending,
			sent: 4,
		});
		const text = await cli(['campaign', 'report', '--db', db, '--name', 'list']);
		expect(text.stdout).toContain('funnel: rows 7, valid 4, sent 4');
	}, 30_000);
});
