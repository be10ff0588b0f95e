import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
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
	type CliResult,
} from './harness';

const HINT = /Run `cloudtel --help` for usage/;

describe('mistakes are recoverable, and found before anything is sent', () => {
	let sandbox: RunningSandbox;
	let env: Record<string, string>;
	let dir: string;
	let csv: string;
	let db: string;
	beforeAll(async () => {
		sandbox = await withSandbox();
		env = envFor(sandbox);
		dir = tempDir();
		csv = writeCsv(dir, 'list.csv', numbersCsv(20));
		db = join(dir, 'l.db');
	});
	afterAll(async () => sandbox?.close());

	const run = (name: string, extra: string[], text = 'Hi {{Name}}') =>
		cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				text,
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				db,
				'--name',
				name,
				'--rate',
				'0',
				...extra,
			],
			env,
		);
	const sentFor = async (name: string) =>
		(await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith(`${name}:`));
	const expectAllSent = async (r: CliResult, name: string, n = 20) => {
		expect(r.code, r.stderr).toBe(0);
		expect(summaryOf(r).rows).toMatchObject({ accepted: n });
		expect(await sentFor(name)).toHaveLength(n);
	};

	it('a typo in --text, --csv, --to-column or --default-country: the corrected run simply starts the campaign again', async () => {
		const typo = await run('typo', [], 'Hi {{Nmae}}');
		expect(typo.code).toBe(2);
		expect(typo.stderr).toMatch(
			/--text: the template uses \{\{Nmae\}\}, but the CSV has no such column/,
		);
		expect(typo.stderr).toMatch(HINT);
		const fixed = await run('typo', []);
		expect(fixed.events.find((e) => e.event === 'replaced')).toMatchObject({
			changed: [expect.stringMatching(/^--text/)],
		});
		await expectAllSent(fixed, 'typo');

		const wrongCsv = await cli(
			[
				'campaign',
				'run',
				'--csv',
				join(dir, 'nope.csv'),
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				db,
				'--name',
				'csvtypo',
			],
			env,
		);
		expect(wrongCsv.code).toBe(1);
		expect(wrongCsv.stderr).toMatch(/no such file/);
		await expectAllSent(await run('csvtypo', []), 'csvtypo');

		const column = await run('coltypo', ['--to-column', 'Nope']);
		expect(column.code).toBe(2);
		expect(column.stderr).toMatch(
			/--to-column Nope is not a column of .* \(columns: Phone, Name\)/,
		);
		expect(column.stderr).toMatch(HINT);
		await expectAllSent(await run('coltypo', ['--to-column', 'Phone']), 'coltypo');

		const country = await run('cctypo', ['--default-country', 'ZZ']);
		expect(country.code).toBe(2);
		expect(country.stderr).toMatch(/--default-country must be a two-letter country code .*"ZZ"/);
		expect(country.stderr).toMatch(HINT);
		await expectAllSent(await run('cctypo', ['--default-country', 'AU']), 'cctypo');

		// Once something was sent, the settings are fixed.
		const changed = await run('cctypo', [], 'Other {{Name}}');
		expect(changed.code).toBe(2);
		expect(changed.stderr).toMatch(
			/already exists in this ledger with other settings, and has sent 20 messages: --text/,
		);
	});

	it('campaign delete frees the name of a campaign that sent nothing, and asks for --force when it has sent', async () => {
		const failed = await run('gone', [], 'Hi {{Nmae}}');
		expect(failed.code).toBe(2);
		const del = await cli(['campaign', 'delete', '--db', db, '--name', 'gone']);
		expect(del.code, del.stderr).toBe(0);
		expect(del.stdout).toMatch(/deleted campaign gone \(0 rows, none sent\)/);
		expect((await cli(['campaign', 'status', '--db', db, '--name', 'gone'])).stderr).toMatch(
			/no campaign named gone/,
		);

		await expectAllSent(await run('sent', []), 'sent');
		const refused = await cli(['campaign', 'delete', '--db', db, '--name', 'sent']);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toMatch(/has sent 20 messages .*Add --force to delete it anyway/);
		expect(
			JSON.parse(
				(await cli(['campaign', 'status', '--db', db, '--name', 'sent', '--json'])).stdout,
			),
		).toMatchObject({ total: 20 });
		const forced = await cli(['campaign', 'delete', '--db', db, '--name', 'sent', '--force']);
		expect(forced.code, forced.stderr).toBe(0);
		expect(forced.stdout).toMatch(
			/deleted campaign sent \(20 rows, 20 of them sent or uncertain\)/,
		);
		expect((await cli(['campaign', 'status', '--db', db, '--name', 'sent'])).stderr).toMatch(
			/no campaign named sent/,
		);
	});

	it('campaign delete refuses a campaign that is running, even with --force', async () => {
		const run = startCli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				db,
				'--name',
				'live',
				// 20 s of sending: the delete and the cancel, two CLI starts on a loaded machine, come before its end.
				'--rate',
				'1',
				'--batch-size',
				'1',
			],
			env,
		);
		await waitFor(async () => (await sentFor('live')).length >= 1);
		const del = await cli(['campaign', 'delete', '--db', db, '--name', 'live', '--force']);
		expect(del.code).toBe(1);
		expect(del.stderr).toMatch(
			/campaign live is running \(pid \d+ on .*\): cancel it and let the run stop before deleting it/,
		);
		expect((await cli(['campaign', 'cancel', '--db', db, '--name', 'live'])).code).toBe(0);
		expect((await run.done).code).toBe(4);
		expect((await cli(['campaign', 'delete', '--db', db, '--name', 'live', '--force'])).code).toBe(
			0,
		);
	});

	it('refuses a --schedule an hour or more in the past, sending nothing', async () => {
		const r = await run('past', ['--schedule', '2020-01-01T00:00:00Z']);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(
			/--schedule is an hour or more in the past \(2020-01-01T00:00:00.000Z\)/,
		);
		expect(await sentFor('past')).toEqual([]);
		// Half an hour ago is what the provider sends at once: allowed.
		await expectAllSent(
			await run('recent', ['--schedule', new Date(Date.now() - 30 * 60_000).toISOString()]),
			'recent',
		);
	});

	it('usage errors before anything is sent: empty --text, broken placeholders, an --out that cannot be written, --rate -5', async () => {
		const cases: [string[], string, RegExp][] = [
			[[], '', /--text is empty/],
			[
				[],
				'Hi {{Name',
				/--text: the placeholder that opens at character 4 \("\{\{Name"\) is never closed/,
			],
			[[], 'Hi {{}}', /--text: the template has an empty placeholder "\{\{\}\}"/],
			[
				['--out', join(dir, 'no-such-dir', 'out.csv')],
				'Hi {{Name}}',
				/--out .*out\.csv cannot be written: its directory does not exist/,
			],
			[['--rate', '-5'], 'Hi {{Name}}', /--rate must be a number, 0 or more \(got "-5"\)/],
			[
				['--rate', '0.001'],
				'Hi {{Name}}',
				/--rate must be 0 \(no limit\) or from 0\.01 to 1,000,000 messages a second \(got "0\.001"\)/,
			],
			[
				['--price-per-segment', '1e308'],
				'Hi {{Name}}',
				/--price-per-segment must be a number from 0 to 1,000,000, such as 0\.045 \(got "1e308"\)/,
			],
		];
		for (const [extra, text, message] of cases) {
			const r = await run('usage', extra, text);
			expect(r.code, r.stderr).toBe(2);
			expect(r.stderr).toMatch(message);
			expect(r.stderr).toMatch(HINT);
		}
		expect(await sentFor('usage')).toEqual([]);
	});

	it('guesses the number column only from To, Phone or Mobile, and says which it took', async () => {
		const numberCsv = writeCsv(dir, 'number.csv', 'Name,Number\nAnn,+61491570156\n');
		const r = await cli(
			['campaign', 'run', '--csv', numberCsv, '--text', 'Hi {{Name}}', '--dry-run'],
			env,
		);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(
			/has no column named To, Phone or Mobile: say which one holds the numbers with --to-column \(columns: Name, Number\)/,
		);
		const mobileCsv = writeCsv(dir, 'mobile.csv', 'Name,MOBILE\nAnn,+61491570156\n');
		const ok = await cli(
			['campaign', 'run', '--csv', mobileCsv, '--text', 'Hi {{Name}}', '--dry-run'],
			env,
		);
		expect(ok.code, ok.stderr).toBe(0);
		expect(ok.events.find((e) => e.event === 'read')).toMatchObject({
			toColumn: 'MOBILE',
			toColumnGuessed: true,
			message: expect.stringMatching(/numbers from column MOBILE \(no --to-column given\)/),
		});
	});

	it('campaign status reads a ledger its user may not write to', async () => {
		const roDir = tempDir();
		const roDb = join(roDir, 'l.db');
		const r = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				roDb,
				'--name',
				'ro2',
				'--rate',
				'0',
			],
			env,
		);
		expect(r.code, r.stderr).toBe(0);
		chmodSync(roDb, 0o444);
		chmodSync(roDir, 0o555);
		// root writes whatever the mode says: read as nobody then.
		const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
		const status = await cli(
			['campaign', 'status', '--db', roDb, '--name', 'ro2', '--json'],
			{},
			asUser,
		);
		expect(status.code, status.stderr).toBe(0);
		expect(JSON.parse(status.stdout)).toMatchObject({
			name: 'ro2',
			total: 20,
			rows: { accepted: 20 },
		});
		chmodSync(roDir, 0o755);
	});

	it('demo --help prints help and starts nothing', async () => {
		const r = await cli(['demo', '--help']);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/^Usage: cloudtel demo/);
		expect(r.stdout).not.toMatch(/sandbox running at/);
	});
});
