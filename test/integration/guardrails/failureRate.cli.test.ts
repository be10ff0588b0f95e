import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { ensureBuilt, workerOnSandbox, type WorkerProcess } from '../daemon/harness';
import { campaignStatus, campaignStatusText, runCampaign } from '../../support/runCampaign';
import { cli, summaryOf, tempDir, withSandbox, writeCsv } from '../worker/harness';

// The brake reads the rows and receipts in the store with SQL both backends share: SQLite only.
const SECRET = 'brake-secret-0123456789abcdef';
let sandbox: RunningSandbox;
let worker: WorkerProcess | undefined;
let db: string;
let receiptUrl: string;

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await withSandbox({ receiptDelayMs: 50 });
	const w = await workerOnSandbox(sandbox, SECRET, {});
	worker = w.worker;
	db = join(w.dir, 'worker.db');
	receiptUrl = `http://127.0.0.1:${w.port}/callbacks/${SECRET}/receipts`;
}, 120_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await sandbox?.close();
});

/** 200 AU mobiles, four in five ending 0666 or 0667: the sandbox fails those on delivery. */
/** `from`: the first number's offset; a list of its own, as the worker suppresses a number whose receipt said it does not exist (0667). */
function deadList(from = 0): string {
	let text = 'Phone,Name\n';
	for (let i = 0; i < 200; i++)
		text += `+614${1000 + from + i}${i % 5 === 0 ? '1234' : i % 2 ? '0666' : '0667'},N${i}\n`;
	return writeCsv(tempDir(), 'list.csv', text);
}

const run = (csv: string, name: string, extra: string[] = [], rate = '40') =>
	runCampaign(sandbox, { csv, db, name, text: 'Hi {{Name}}', rate, receiptUrl, flags: extra });

const status = (name: string) => campaignStatus(db, name);

describe('campaign run --max-failure-rate', () => {
	it('a list that mostly fails pauses (exit 4) by its failure-rate with the top ErrorCodes; a run does not resume it, `campaign resume` does and judges afresh', async () => {
		const csv = deadList();
		const first = await run(csv, 'dead');
		expect(first.code, first.stderr + first.stdout.slice(-3000)).toBe(4);
		expect((summaryOf(first) as { pausedBy?: string }).pausedBy).toBe('failure-rate');
		const paused = await status('dead');
		expect(paused).toMatchObject({ paused: true, pausedBy: 'failure-rate' });
		expect(paused.pausedReason).toMatch(
			/of the latest \d+ delivery outcomes failed \(\d+%, above --max-failure-rate 0\.3\): (UNDELIVERABLE|UNKNOWN_SUBSCRIBER) \d+, (UNDELIVERABLE|UNKNOWN_SUBSCRIBER) \d+/,
		);
		expect(paused.rows.pending).toBeGreaterThan(0);
		expect(await campaignStatusText(db, 'dead')).toMatch(/paused by its failure-rate/);

		// Running it again does not go on: the brake wants a person's resume.
		const again = await run(csv, 'dead');
		expect(again.code, again.stderr).toBe(4);
		expect((await status('dead')).rows.pending).toBe(paused.rows.pending);

		// After the resume only rows sent from then count: the old failures do not pause it at
		// once; it sends 50 more at least before the brake can judge again.
		expect((await cli(['campaign', 'resume', '--db', db, '--name', 'dead'])).code).toBe(0);
		const rest = await run(csv, 'dead');
		const after = await status('dead');
		if (rest.code === 4) {
			expect(after.pausedBy).toBe('failure-rate');
			expect(after.rows.accepted - paused.rows.accepted).toBeGreaterThanOrEqual(50);
		} else {
			expect(rest.code, rest.stderr + rest.stdout.slice(-3000)).toBe(0);
			expect(after).toMatchObject({ paused: false, rows: { pending: 0 } });
		}
	});

	it('0 turns the brake off: the same list is sent to its end', async () => {
		const r = await run(deadList(200), 'dead-off', ['--max-failure-rate', '0'], '0');
		expect(r.code, r.stderr + r.stdout.slice(-3000)).toBe(0);
		expect(await status('dead-off')).toMatchObject({ paused: false, rows: { accepted: 200 } });
	});

	it('a fraction out of range is refused, naming the flag', async () => {
		const r = await run(deadList(), 'dead-bad', ['--max-failure-rate', '1.5']);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain('--max-failure-rate must be a fraction from 0 to 1');
	});
});
