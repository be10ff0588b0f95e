import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
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
} from './harness';

/** One part per file (control.pause, .cancel, .twice): files run side by side, each well within 60 s. */
export function scenarios(part: 'pause' | 'cancel' | 'twice'): void {
	describe('campaign pause, resume and cancel', () => {
		let sandbox: RunningSandbox;
		beforeAll(async () => {
			sandbox = await withSandbox();
		});
		afterAll(async () => sandbox?.close());

		const count = async (name: string) =>
			(await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith(`${name}:`)).length;

		/**
		 * A run at `rate` a second. A test that acts on it while it runs (a pause, a second run: a
		 * CLI start, seconds on a loaded machine) gives it several seconds: an empty-cache CI run
		 * found a 3 s run already finished when its second run came.
		 */
		function begin(name: string, rows: number, rate = 100) {
			const dir = tempDir();
			const db = join(dir, 'l.db');
			const csv = writeCsv(dir, 'c.csv', numbersCsv(rows));
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
				name,
				'--rate',
				String(rate),
			];
			const run = startCli(args, envFor(sandbox));
			let stdout = '';
			run.child.stdout!.on('data', (d) => (stdout += d));
			return { db, args, run, stdout: () => stdout };
		}

		it.runIf(part === 'pause')(
			'pauses a running campaign, which then sends nothing until resumed, and finishes',
			async () => {
				const c = begin('p1', 400, 60);
				await waitFor(async () => (await count('p1')) >= 50);
				expect((await cli(['campaign', 'pause', '--db', c.db, '--name', 'p1'])).stdout).toMatch(
					/paused campaign p1: the run \(pid \d+\)/,
				);
				await waitFor(() => c.stdout().includes('"event":"paused"'));
				const held = await count('p1');
				const status = JSON.parse(
					(await cli(['campaign', 'status', '--db', c.db, '--name', 'p1', '--json'])).stdout,
				);
				expect(status).toMatchObject({ paused: true, running: { pid: c.run.child.pid } });
				// Another run at the same pace starts and sends its 50 meanwhile: a run still sending would have sent more by then.
				const mark = await begin('p1mark', 50, 60).run.done;
				expect(mark.code, mark.stderr).toBe(0);
				expect(await count('p1mark')).toBe(50);
				expect(await count('p1')).toBe(held);
				expect(held).toBeLessThan(400);
				expect((await cli(['campaign', 'resume', '--db', c.db, '--name', 'p1'])).code).toBe(0);
				const done = await c.run.done;
				expect(done.code, done.stderr).toBe(0);
				expect(summaryOf(done).rows).toMatchObject({ accepted: 400 });
				expect(await count('p1')).toBe(400);
			},
		);

		it.runIf(part === 'cancel')(
			'cancels a running campaign: rows not sent are cancelled, and a later run sends nothing',
			async () => {
				const c = begin('c1', 400);
				await waitFor(async () => (await count('c1')) >= 50);
				expect((await cli(['campaign', 'cancel', '--db', c.db, '--name', 'c1'])).code).toBe(0);
				const done = await c.run.done;
				expect(done.code).toBe(4);
				const s = summaryOf(done);
				const sent = await count('c1');
				expect(s.rows.accepted).toBe(sent);
				expect(s.rows.cancelled).toBe(400 - sent);
				expect(sent).toBeLessThan(400);
				const again = await cli(c.args, envFor(sandbox));
				expect(again.code).toBe(4);
				expect(summaryOf(again).message).toMatch(/cancelled/);
				expect(await count('c1')).toBe(sent);
				expect((await cli(['campaign', 'resume', '--db', c.db, '--name', 'c1'])).stderr).toMatch(
					/cancelled and cannot be resumed/,
				);
			},
		);

		it.runIf(part === 'cancel')(
			'cancelling a campaign whose run died mid-chunk: that chunk is uncertain, the rest cancelled',
			async () => {
				const dir = tempDir();
				const db = join(dir, 'ledger.db');
				// The ledger as a SIGKILL leaves it: a chunk marked submitting, its answer never stored.
				const ledger = new SqliteLedger(db);
				await ledger.createCampaign({
					name: 'k1',
					csvPath: join(dir, 'list.csv'),
					propertySid: sandbox.demo.PropertySid,
					text: 'Hi',
				});
				await ledger.importBatch(
					'k1',
					[2, 3, 4, 5].map((line) => ({
						line,
						to: `+6149157015${line}`,
						text: 'Hi',
						segments: 1,
						status: 'pending' as const,
					})),
					5,
				);
				await ledger.setPhase('k1', 'sending');
				await ledger.markSubmitting('k1', [2, 3], 1);
				await ledger.close();
				const cancel = await cli(['campaign', 'cancel', '--db', db, '--name', 'k1']);
				expect(cancel.code).toBe(0);
				expect(cancel.stdout).toMatch(
					/2 rows will not be sent; 2 rows a stopped run was submitting are uncertain/,
				);
				const status = await cli(['campaign', 'status', '--db', db, '--name', 'k1', '--json']);
				expect(JSON.parse(status.stdout).rows).toMatchObject({
					uncertain: 2,
					cancelled: 2,
					submitting: 0,
					pending: 0,
				});
			},
		);

		it.runIf(part === 'pause')(
			'a campaign paused with no run active waits for resume, then runs to the end',
			async () => {
				const c = begin('p2', 300);
				await waitFor(async () => (await count('p2')) >= 20);
				c.run.child.kill('SIGINT');
				expect((await c.run.done).code).toBe(130);
				await cli(['campaign', 'pause', '--db', c.db, '--name', 'p2']);
				const refused = await cli(c.args, envFor(sandbox));
				expect(refused.code).toBe(4);
				expect(summaryOf(refused).message).toMatch(/is paused/);
				expect((await cli(['campaign', 'resume', '--db', c.db, '--name', 'p2'])).stdout).toMatch(
					/no run is active/,
				);
				const done = await cli(c.args, envFor(sandbox));
				expect(done.code).toBe(0);
				expect(summaryOf(done).rows).toMatchObject({ accepted: 300, uncertain: 0 });
				expect(await count('p2')).toBe(300);
			},
		);

		it.runIf(part === 'twice')('refuses a second run of a campaign that is running', async () => {
			const c = begin('twice', 60, 10);
			await waitFor(async () => (await count('twice')) >= 5);
			const second = await cli(c.args, envFor(sandbox));
			expect(second.code).toBe(1);
			expect(second.stderr).toMatch(/already running \(pid \d+/);
			expect((await c.run.done).code).toBe(0);
			expect(await count('twice')).toBe(60);
		});
	});
}
