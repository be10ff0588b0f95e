import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { SqliteLedger } from '../../../worker/src/ledger/sqliteLedger';
import { cli, envFor, numbersCsv, startCli, summaryOf, tempDir, withSandbox, writeCsv } from './harness';


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

describe('campaign status while a campaign writes', () => {
	// root writes whatever the mode says: the copy is read as nobody then.
	const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
	const cases = [
		{ name: 'read in place', copied: false, rows: 6000, rate: '1500' },
		// Unpaced, so the ledger checkpoints and starts its WAL again many times while it is copied.
		...(nobody ? [{ name: 'read from a copy, by a user who may not write beside the ledger', copied: true, rows: 40_000, rate: '0' }] : []),
	];

	it.each(cases)('shows one moment of the ledger each time ($name)', async ({ copied, rows: ROWS, rate }) => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(ROWS));
		const db = join(dir, 'l.db');
		const run = startCli(['campaign', 'run', '--csv', csv, '--text', 'Hi {{Name}}', '--property', sandbox.demo.PropertySid, '--db', db, '--name', 'busy', '--rate', rate, '--batch-size', '20'], envFor(sandbox));
		let finished = false;
		void run.done.then(() => (finished = true));
		if (copied) chmodSync(dir, 0o555);
		let reads = 0;
		let midRun = 0;
		try {
			while (!finished) {
				if (!existsSync(db)) continue;
				// SQLite would read the running campaign's -shm read-only; unreadable, the ledger is copied.
				if (copied && existsSync(`${db}-shm`)) chmodSync(`${db}-shm`, 0o600);
				const r = await cli(['campaign', 'status', '--db', db, '--name', 'busy', '--json'], {}, copied ? nobody : {});
				if (r.code !== 0 && /no campaign named busy/.test(r.stderr)) continue;
				expect(r.code, r.stderr).toBe(0);
				const s = JSON.parse(r.stdout) as Status;
				expectOneMoment(s);
				reads++;
				if (s.rows.accepted > 0 && s.rows.accepted < ROWS) midRun++;
			}
		} finally {
			chmodSync(dir, 0o755);
		}
		const done = await run.done;
		expect(done.code, done.stderr).toBe(0);
		expect(summaryOf(done).rows).toMatchObject({ accepted: ROWS });
		expect(reads).toBeGreaterThan(5);
		expect(midRun).toBeGreaterThan(3);
	}, 120_000);
});

describe('campaign status from a copy while the ledger is checkpointed', () => {
	const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

	// SQLite writes the WAL back into the database and starts it again while the copy is
	// taken: a database copied before that and a WAL copied after would be two moments.
	it.runIf(nobody)('never reads a torn copy', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const ledger = new SqliteLedger(db);
		await ledger.createCampaign({ name: 'big', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
		const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ line: from + i, to: `+614${String(10_000_000 + from + i).slice(-8)}`, text: 'Hi there, a text of some length to fill pages', segments: 1, status: 'pending' as const }));
		// Large enough that copying it takes a while.
		let next = 2;
		for (let i = 0; i < 40; i++, next += 5000) await ledger.importBatch('big', rows(next, 5000), next + 4999);
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
				// The -shm readable by its owner only: SQLite cannot read the ledger in place, so it is copied.
				chmodSync(`${db}-shm`, 0o600);
				// 10,000 rows a second, as a fast run stores its answers.
				await new Promise((r) => setTimeout(r, 20));
			}
		})();
		try {
			for (let i = 0; i < 25; i++) {
				const r = await cli(['campaign', 'status', '--db', db, '--name', 'big', '--json'], {}, nobody);
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
});
