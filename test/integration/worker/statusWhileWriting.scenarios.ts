import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { HoldingProxy } from '../../support/holdingProxy';
import {
	cli,
	envFor,
	numbersCsv,
	startCli,
	summaryOf,
	tempDir,
	waitFor,
	withSandbox,
	writeCsv,
} from './harness';

/** Preloaded into a status run: it waits between its copies of the database and the WAL. */
const TORN_HOOK = resolve(__dirname, '../../support/tornCopyHook.mjs');

/** campaign status while a campaign writes, in parts: read in place, read from a copy, and a copy taken while the ledger checkpoints. */
export function scenarios(part: 'in-place' | 'copy' | 'torn'): void {
	interface Status {
		phase: string;
		total: number;
		importedThrough: number;
		rows: Record<string, number>;
		delivery: { awaitingReceipt: number; delivered: number; failed: number };
	}

	let sandbox: RunningSandbox;
	// Receipts come a minute after each send: none during these runs.
	beforeAll(async () => (sandbox = await withSandbox({ receiptDelayMs: 60_000 })));
	afterAll(async () => sandbox?.close());

	/**
	 * What one moment of the ledger shows, whichever moment it is: the rows add up to the
	 * total, the import mark matches the rows imported, and every accepted row awaits its
	 * receipt. Each figure comes from its own query, so reads taken at different moments break
	 * at least one of these while a run writes.
	 */
	function expectOneMoment(s: Status): void {
		if (s.rows.accepted === undefined) throw new Error(JSON.stringify(s));
		expect(Object.values(s.rows).reduce((a, b) => a + b, 0)).toBe(s.total);
		// Lines 2 to importedThrough are in (line 1 is the header); none before the first batch.
		expect(s.total).toBe(Math.max(0, s.importedThrough - 1));
		expect(s.delivery.delivered + s.delivery.failed).toBe(0);
		expect(s.delivery.awaitingReceipt).toBe(s.rows.accepted);
	}

	// root writes whatever the mode says: a copy is read as nobody then. Elsewhere the copy
	// cases cannot run: skipped on a developer's machine, failed in CI, where they must run.
	const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
	/**
	 * The ledger and its WAL made readable by others, as an operator would grant a reader, but
	 * not its -shm: SQLite would read the running campaign's -shm read-only; unreadable, the
	 * ledger is copied. cloudtel creates them all 0600.
	 */
	function shareForReading(db: string): void {
		for (const [file, mode] of [
			[db, 0o644],
			[`${db}-wal`, 0o644],
			[`${db}-shm`, 0o600],
		] as const)
			if (existsSync(file)) chmodSync(file, mode);
	}

	function needsRoot(skip: (note?: string) => void): void {
		if (nobody) return;
		if (process.env.CI)
			throw new Error(
				'reading a copy needs a user who may not write beside the ledger: run as root, which reads as nobody',
			);
		skip('not root: no user to read a copy as');
	}

	describe.runIf(part !== 'torn')('campaign status while a campaign writes', () => {
		const cases = [
			{ name: 'read in place', copied: false, rows: 6000, rate: '1500', batchesPerRead: 20 },
			// Unpaced, so the ledger checkpoints and starts its WAL again many times while it is copied.
			{
				name: 'read from a copy, by a user who may not write beside the ledger',
				copied: true,
				rows: 40_000,
				rate: '0',
				batchesPerRead: 100,
			},
		];

		it.for(cases.filter((c) => (c.copied ? 'copy' : 'in-place') === part))(
			'shows one moment of the ledger each time ($name)',
			{ timeout: 180_000 },
			async ({ copied, rows: ROWS, rate, batchesPerRead }, { skip }) => {
				if (copied) needsRoot(skip);
				// The run may not outrun the reads: the answer to batch n waits for n / batchesPerRead
				// reads taken mid-run, so every run is read mid-run that often, however fast or slow
				// the machine, while it goes on writing between them.
				let midRun = 0;
				let open = false;
				const waiting: (() => void)[] = [];
				const proxy = new HoldingProxy(
					sandbox.url,
					() => 'pass',
					(batch) =>
						new Promise<void>((release) => {
							const check = () =>
								open || midRun >= Math.floor(batch / batchesPerRead)
									? release()
									: waiting.push(check);
							check();
						}),
				);
				await proxy.start();
				const readMidRun = () => {
					midRun++;
					for (const check of waiting.splice(0)) check();
				};
				const dir = tempDir();
				const csv = writeCsv(dir, 'list.csv', numbersCsv(ROWS));
				const db = join(dir, 'l.db');
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
						'busy',
						'--rate',
						rate,
						'--batch-size',
						'20',
					],
					{ ...envFor(sandbox), CLOUDTEL_BASE_URL: proxy.url },
				);
				let finished = false;
				void run.done.then(() => (finished = true));
				if (copied) chmodSync(dir, 0o555);
				let reads = 0;
				try {
					await waitFor(() => finished || existsSync(db), 60_000);
					while (!finished) {
						if (copied) shareForReading(db);
						const r = await cli(
							['campaign', 'status', '--db', db, '--name', 'busy', '--json'],
							{},
							copied ? nobody : {},
						);
						// The file can exist a moment before the run has made its tables or its campaign.
						if (r.code !== 0 && /no campaign named busy|holds no cloudtel tables/.test(r.stderr))
							continue;
						expect(r.code, r.stderr).toBe(0);
						const s = JSON.parse(r.stdout) as Status;
						expectOneMoment(s);
						reads++;
						if (s.rows.accepted > 0 && s.rows.accepted < ROWS) readMidRun();
					}
				} finally {
					open = true;
					for (const check of waiting.splice(0)) check();
					chmodSync(dir, 0o755);
					if (!finished) run.child.kill('SIGKILL');
					await run.done;
					await proxy.close();
				}
				const done = await run.done;
				expect(done.code, done.stderr).toBe(0);
				expect(summaryOf(done).rows).toMatchObject({ accepted: ROWS });
				// The last answer waited for this many reads mid-run, each of one moment.
				expect(midRun).toBeGreaterThanOrEqual(Math.floor((ROWS / 20 - 1) / batchesPerRead));
				expect(reads).toBeGreaterThanOrEqual(midRun);
			},
		);
	});

	describe.runIf(part === 'torn')(
		'campaign status from a copy while the ledger is checkpointed',
		() => {
			const rows = (from: number, n: number) =>
				Array.from({ length: n }, (_, i) => ({
					line: from + i,
					to: `+614${String(10_000_000 + from + i).slice(-8)}`,
					text: 'Hi there, a text of some length to fill pages',
					segments: 1,
					status: 'pending' as const,
				}));

			// SQLite writes the WAL back into the database and starts it again while the copy is
			// taken: a database copied before that and a WAL copied after would be two moments.
			it('never reads a torn copy: a checkpoint between its copies of the database and the WAL makes it copy again', async ({
				skip,
			}) => {
				needsRoot(skip);
				const dir = tempDir();
				const db = join(dir, 'l.db');
				const ledger = new SqliteLedger(db);
				const checkpointer = new Database(db);
				const signals = tempDir();
				chmodSync(signals, 0o777);
				try {
					await ledger.createCampaign({
						name: 'torn',
						csvPath: '/list.csv',
						propertySid: 'PR1',
						text: 'Hi',
					});
					let next = 2;
					const importRows = async (n: number) => {
						await ledger.importBatch('torn', rows(next, n), next + n - 1);
						next += n;
					};
					for (let i = 0; i < 4; i++) await importRows(5000);
					// The database holds those; the WAL then holds only the next 5,000 rows.
					checkpointer.pragma('wal_checkpoint(TRUNCATE)');
					await importRows(5000);
					chmodSync(dir, 0o555);
					shareForReading(db);
					const read = startCli(
						['campaign', 'status', '--db', db, '--name', 'torn', '--json'],
						{
							NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(TORN_HOOK).href}`,
							CLOUDTEL_TEST_TORN_DIR: signals,
						},
						nobody,
					);
					// Its database copied, the status waits: the WAL is written back and started again.
					await waitFor(() => existsSync(join(signals, 'copied')), 30_000);
					checkpointer.pragma('wal_checkpoint(RESTART)');
					await importRows(200);
					shareForReading(db);
					writeFileSync(join(signals, 'go'), '');
					const r = await read.done;
					expect(r.code, r.stderr).toBe(0);
					const s = JSON.parse(r.stdout) as Status;
					// The moment after the last write, whole: not the old database with the new WAL.
					expect(s.importedThrough).toBe(next - 1);
					expect(s.total).toBe(next - 2);
					expect(s.rows.pending).toBe(s.total);
				} finally {
					// A status still held (the test failed before it let it on) goes on and ends.
					writeFileSync(join(signals, 'go'), '');
					checkpointer.close();
					await ledger.close();
					chmodSync(dir, 0o755);
				}
			}, 60_000);

			it('reads one moment each time from a copy while the ledger is written and checkpointed', async ({
				skip,
			}) => {
				needsRoot(skip);
				const dir = tempDir();
				const db = join(dir, 'l.db');
				const ledger = new SqliteLedger(db);
				await ledger.createCampaign({
					name: 'big',
					csvPath: '/list.csv',
					propertySid: 'PR1',
					text: 'Hi',
				});
				// Large enough that copying it takes a while.
				let next = 2;
				for (let i = 0; i < 40; i++, next += 5000)
					await ledger.importBatch('big', rows(next, 5000), next + 4999);
				const checkpointer = new Database(db);
				chmodSync(dir, 0o555);
				let writing = true;
				const writer = (async () => {
					// A busy run's WAL is written back and started again every few hundred ms at most.
					for (let restarted = Date.now(); writing; next += 200) {
						await ledger.importBatch('big', rows(next, 200), next + 199);
						if (Date.now() - restarted > 200) {
							checkpointer.pragma('wal_checkpoint(RESTART)');
							restarted = Date.now();
						}
						shareForReading(db);
						// 10,000 rows a second, as a fast run stores its answers.
						await new Promise((r) => setTimeout(r, 20));
					}
				})();
				try {
					// Fifteen reads, each racing a checkpoint every 200 ms (25 took 65 s of a loaded CI
					// run, the ledger growing by 10,000 rows a second meanwhile); the torn case itself is
					// forced, not waited for, in the test above.
					for (let i = 0; i < 15; i++) {
						const r = await cli(
							['campaign', 'status', '--db', db, '--name', 'big', '--json'],
							{},
							nobody,
						);
						expect(r.code, r.stderr).toBe(0);
						const s = JSON.parse(r.stdout) as Status;
						// Lines 2 to importedThrough are in (line 1 is the header); none before the first batch.
						expect(s.total).toBe(Math.max(0, s.importedThrough - 1));
						expect(s.rows.pending).toBe(s.total);
					}
				} finally {
					writing = false;
					await writer;
					checkpointer.close();
					await ledger.close();
					chmodSync(dir, 0o755);
				}
			}, 180_000);
		},
	);
}
