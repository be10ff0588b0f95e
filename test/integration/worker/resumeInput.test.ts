import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import {
	cli,
	numbersCsv,
	sandboxForTests,
	sandboxMessages,
	startCli,
	summaryOf,
	tempDir,
	waitFor,
	writeCsv,
} from './harness';

/** A resume reads the CSV again: an edited file must not shift rows under the import mark. */
describe('a resume checks its input', () => {
	let sandbox: RunningSandbox;
	let env: Record<string, string>;
	sandboxForTests((started) => ({ sandbox, env } = started));

	const sentFor = async (name: string) =>
		(await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith(`${name}:`));
	const campaignRow = (db: string) => {
		const d = new Database(db, { readonly: true });
		try {
			return d
				.prepare(
					`SELECT phase, imported_through AS importedThrough, input_bytes AS inputBytes FROM campaigns`,
				)
				.get() as { phase: string; importedThrough: number; inputBytes: number | null } | undefined;
		} finally {
			d.close();
		}
	};

	it('imports again from the first line when the list was edited during an interrupted import and nothing was sent', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const rows = 60_000;
		const csv = writeCsv(dir, 'big.csv', numbersCsv(rows));
		// Held back by a schedule more than 14 days ahead: nothing is sent while we look.
		const schedule = new Date(Date.now() + 20 * 86_400_000).toISOString();
		const args = [
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
			'edited',
			'--schedule',
			schedule,
		];
		const run = startCli(args, env);
		await waitFor(
			() => {
				try {
					return (campaignRow(db)?.importedThrough ?? 0) > 0;
				} catch {
					return false;
				}
			},
			30_000,
			5,
		);
		run.child.kill('SIGKILL');
		await run.done;
		const killed = campaignRow(db)!;
		expect(killed.phase).toBe('importing');
		expect(killed.importedThrough).toBeLessThan(rows + 1);
		expect(killed.inputBytes).toBeGreaterThan(0);

		// As `sed -i 2,20001d`: the first 20,000 recipients go.
		const lines = readFileSync(csv, 'utf8').split('\n');
		writeFileSync(csv, [lines[0], ...lines.slice(20_001)].join('\n'));
		const resumed = startCli(args, env);
		await waitFor(() => campaignRow(db)?.phase === 'sending', 60_000, 50);
		resumed.child.kill('SIGINT');
		const r = await resumed.done;
		const event = r.events.find((e) => e.event === 'reimport');
		expect(event?.change, r.stdout.slice(-2000)).toMatch(
			/big\.csv has changed since it was imported \(then [\d,]+ bytes, modified .* UTC; now [\d,]+ bytes/,
		);
		const status = JSON.parse(
			(await cli(['campaign', 'status', '--db', db, '--name', 'edited', '--json'])).stdout,
		) as { total: number };
		// Every recipient of the new file, none skipped: before, the import went on at the old line and 20,000 more were lost.
		expect(status.total).toBe(rows - 20_000);
		expect(await sentFor('edited')).toEqual([]);
	});

	it('refuses to resume a campaign that has sent when its file changed, in one line naming the change and the ways out; unchanged or grown, it resumes', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const csv = writeCsv(dir, 'list.csv', numbersCsv(30));
		const args = [
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
			'sent1',
		];
		const first = await cli(args, env);
		expect(first.code, first.stderr).toBe(0);
		expect(campaignRow(db)!.inputBytes).toBe(Buffer.byteLength(numbersCsv(30)));
		// The same file, and the same file with rows added at its end: not a change to what was read.
		expect((await cli(args, env)).code).toBe(0);
		writeFileSync(csv, numbersCsv(30) + '+61410009999,Late\n');
		expect((await cli(args, env)).code).toBe(0);

		writeFileSync(csv, numbersCsv(30).replace(',N5\n', ',Nina\n'));
		const r = await cli(args, env);
		expect(r.code).toBe(1);
		const lines = r.stderr.trim().split('\n');
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(
			/^cloudtel: campaign sent1: .*list\.csv has changed since it was imported \(then [\d,]+ bytes, modified .*; now .*\), and 30 messages were sent from it: restore the file as it was to resume, or forget the campaign with `cloudtel campaign delete --force --name sent1` and start anew$/,
		);
		expect(await sentFor('sent1')).toHaveLength(30);
	});

	it('compares standard input too: the same list resumes, an edited one is refused', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const list = numbersCsv(20, 500);
		const args = [
			'campaign',
			'run',
			'--csv',
			'-',
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.demo.PropertySid,
			'--db',
			db,
			'--name',
			'piped',
		];
		const first = await cli(args, env, { input: list });
		expect(first.code, first.stderr).toBe(0);
		expect(summaryOf(first).rows.accepted).toBe(20);
		expect((await cli(args, env, { input: list })).code).toBe(0);
		const r = await cli(args, env, { input: list.replace(',N505\n', ',Nora\n') });
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/campaign piped: standard input differs from what was imported \(its first [\d,]+ bytes differ\), and 20 messages were sent from it: restore the file as it was to resume, or forget/,
		);
	});
});
