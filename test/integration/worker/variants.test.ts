import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { inTest } from '../../../worker/src/campaign/variantSink';
import { cleanupAfterAll } from '../../support/cleanup';
import { HoldingProxy, type BatchFate } from '../../support/holdingProxy';
import { campaignRunArgs } from '../../support/runCampaign';
import { runLater } from '../../support/runLater';
import { workerRig } from '../../support/workerRig';
import { type SandboxDriver, until } from '../daemon/harness';
import {
	cli,
	numbersCsv,
	sandboxMessages,
	startCli,
	summaryOf,
	waitFor,
	writeCsv,
} from './harness';

/**
 * Variant campaigns through the CLI, one backend (SQLite): the store's part is the same SQL
 * on both (variantStore.ts). A worker on the same ledger takes the replies the sandbox
 * calls back, as a user's would.
 */
const SECRET = 'variants-secret-0123456789';
const A = 'Hi {{Name}}, our sale starts today';
const B = 'Hi {{Name}}, 20% off everything today only';

const cleanup = cleanupAfterAll();
let sandbox: RunningSandbox;
let driver: SandboxDriver;
let dir: string;
let db: string;
let callbacks: string;
let env: Record<string, string>;

beforeAll(async () => {
	({ sandbox, driver, dir, db, callbacks, env } = await workerRig(cleanup, {
		secret: SECRET,
		sandbox: { receiptDelayMs: 600_000 },
	}));
}, 60_000);

const runArgs = (name: string, csv: string, extra: string[]) =>
	campaignRunArgs(sandbox, {
		csv,
		db,
		name,
		text: A,
		rate: '0',
		flags: ['--variant', B, '--reply-url', `${callbacks}/replies`, ...extra],
	});
const run = (name: string, csv: string, extra: string[]) => cli(runArgs(name, csv, extra), env);

const status = async (name: string) => {
	const r = await cli(['campaign', 'status', '--name', name, '--db', db, '--json'], env);
	expect(r.code, r.stderr).toBe(0);
	return JSON.parse(r.stdout) as {
		rows: Record<string, number>;
		variants: { text: string; rows: number; sent: number; replies: number; optOuts: number }[];
		winner: { index: number; by: string; byHand: boolean; decidedAt: string } | null;
	};
};

/** The campaign's messages out (a reply to one carries its ExternalId too). */
const ofCampaign = async (name: string, list = numbersCsv(40)) => {
	const numbers = new Set(
		list
			.trim()
			.split('\n')
			.slice(1)
			.map((l) => l.split(',')[0]),
	);
	return (await sandboxMessages(sandbox)).filter(
		(m) => String(m.ExternalId).startsWith(`${name}:`) && numbers.has(m.To),
	);
};

describe('campaign run with --variant', () => {
	it('sends the test split evenly, waits, and sends the rest with the text whose replies were best', async () => {
		const csv = writeCsv(dir, 'sale.csv', numbersCsv(40));
		const first = await run('sale', csv, ['--test-share', '0.5', '--decide-after', '2h']);
		expect(first.code, first.stderr).toBe(4);
		const waiting = summaryOf(first);
		expect(waiting.message).toMatch(
			/^waiting for the variant decision at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z: run the same command again/,
		);
		const test = await ofCampaign('sale');
		const ofA = test.filter((m) => m.ExternalId!.startsWith('sale:v1:'));
		const ofB = test.filter((m) => m.ExternalId!.startsWith('sale:v2:'));
		// Split evenly: by turns, so the two differ by one at most.
		expect(ofA.length + ofB.length).toBe(test.length);
		expect(Math.abs(ofA.length - ofB.length)).toBeLessThanOrEqual(1);
		expect(ofA.length).toBeGreaterThan(2);
		for (const m of ofA) expect(m.Text).toMatch(/our sale starts today$/);
		for (const m of ofB) expect(m.Text).toMatch(/20% off everything today only$/);
		const before = await status('sale');
		expect(before.rows.held).toBe(40 - test.length);
		expect(before.winner).toBeNull();
		expect(before.variants.map((v) => v.rows)).toEqual([ofA.length, ofB.length]);

		// Two of B's recipients answer, none of A's.
		for (const m of ofB.slice(0, 2)) await driver.reply(m.To, m.From!, 'Yes please!');
		await until(
			async () => ((await status('sale')).variants[1].replies === 2 ? true : undefined),
			20_000,
			'the replies in the ledger',
		);

		// The same command again, by a clock past the decision: B wins and the rest goes with it.
		const summary = await runLater(
			sandbox,
			db,
			{ name: 'sale', csvPath: csv, text: A, variants: [B], testShare: 0.5, decideAfter: 7200 },
			2 * 3600_000 + 1000,
		);
		expect(summary.exitCode, summary.message).toBe(0);
		const all = await ofCampaign('sale');
		expect(all).toHaveLength(40);
		expect(new Set(all.map((m) => m.To)).size).toBe(40);
		const rest = all.filter((m) => !test.some((t) => t.MessageSid === m.MessageSid));
		expect(rest).toHaveLength(40 - test.length);
		for (const m of rest) {
			expect(m.ExternalId).toMatch(/^sale:v2:\d+$/);
			expect(m.Text).toMatch(/20% off everything today only$/);
		}
		const after = await status('sale');
		expect(after.winner).toMatchObject({ index: 2, by: 'replies', byHand: false });
		expect(after.rows.held).toBe(0);
		expect(after.rows.accepted).toBe(40);
		expect(after.variants[1]).toMatchObject({ rows: 40 - ofA.length, replies: 2 });
		// The report: a table per text, the winner marked.
		const report = await cli(['campaign', 'report', '--name', 'sale', '--db', db], env);
		expect(report.code, report.stderr).toBe(0);
		expect(report.stdout).toContain('variants: text 2 won (by replies');
		expect(report.stdout).toMatch(
			/\*2 rows \d+, sent \d+, delivered 0, failed 0, replies 2, clicks not tracked/,
		);
		const html = join(dir, 'sale.html');
		expect(
			(await cli(['campaign', 'report', '--name', 'sale', '--db', db, '--html', html], env)).code,
		).toBe(0);
		const page = readFileSync(html, 'utf8');
		expect(page).toContain('<caption>Variants: text 2 won (by replies');
		// And a chart of the texts side by side, the winner named.
		const chart = /<figure class="chart" data-chart="variants">(.*?)<\/figure>/s.exec(page)?.[1];
		expect(chart).toMatch(/<svg/);
		expect(chart).toContain('2 (won)');
		expect(chart).toContain('Replied');
	}, 60_000);

	it('decides by hand once: killed after the decision with the rest on its way, run again it sends no row twice and keeps the winner', async () => {
		const list = numbersCsv(30, 1000);
		const csv = writeCsv(dir, 'flash.csv', list);
		// Batches from holdFrom on are sent by the sandbox, their answers never come back.
		let holdFrom = Infinity;
		const proxy = new HoldingProxy(
			sandbox.url,
			(batch): BatchFate => (batch < holdFrom ? 'pass' : 'answerLost'),
		);
		await proxy.start();
		const viaProxy = { ...env, CLOUDTEL_BASE_URL: proxy.url };
		const args = (extra: string[]) =>
			runArgs('flash', csv, [
				'--test-share',
				'0.5',
				'--batch-size',
				'3',
				'--concurrency',
				'1',
				...extra,
			]);
		try {
			const first = await cli(args([]), viaProxy);
			expect(first.code, first.stderr).toBe(4);
			const test = await ofCampaign('flash', list);
			holdFrom = proxy.batches.length + 1;
			const byHand = startCli(args(['--winner', '2']), viaProxy);
			let ended = false;
			void byHand.done.then(() => (ended = true));
			await waitFor(() => ended || proxy.batches.length > holdFrom, 30_000);
			expect(ended, (await Promise.race([byHand.done, Promise.resolve(undefined)]))?.stderr).toBe(
				false,
			);
			byHand.child.kill('SIGKILL');
			expect((await byHand.done).code).toBeNull();
			const decided = await status('flash');
			expect(decided.winner).toMatchObject({ index: 2, byHand: true });

			// Another text by hand is refused: the decision stands.
			const other = await cli(args(['--winner', '1']), viaProxy);
			expect(other.code).toBe(2);
			expect(other.stderr).toContain('text 2 won already (by hand');

			holdFrom = Infinity;
			const again = await cli(args([]), viaProxy);
			// The rows of the batches whose answers were lost are uncertain, not sent again.
			expect(again.code, again.stderr).toBe(3);
			const after = await status('flash');
			expect(after.winner).toEqual(decided.winner);
			expect(after.rows).toMatchObject({ held: 0, pending: 0, submitting: 0 });
			expect(after.rows.accepted + after.rows.uncertain).toBe(30);
			expect(after.rows.uncertain).toBeGreaterThanOrEqual(3);

			const all = await ofCampaign('flash', list);
			// Nobody got a message twice, and everybody got one.
			expect(new Set(all.map((m) => m.To)).size).toBe(all.length);
			expect(all).toHaveLength(30);
			for (const m of all.filter((x) => !test.some((t) => t.MessageSid === x.MessageSid))) {
				expect(m.ExternalId).toMatch(/^flash:v2:\d+$/);
				expect(m.Text).toMatch(/20% off everything today only$/);
			}
		} finally {
			await proxy.close();
		}
	}, 60_000);
	it('decides by itself once: killed with the rest on its way, run again after replies that favour the other text, it keeps the winner and sends no row twice', async () => {
		const list = numbersCsv(30, 2000);
		const csv = writeCsv(dir, 'crash.csv', list);
		const numbers = list
			.trim()
			.split('\n')
			.slice(1)
			.map((l) => l.split(',')[0]);
		// The test's batches pass; from the rest's first on, the sandbox sends, the answer is lost.
		const testBatches = Math.ceil(numbers.filter((to) => inTest('crash', to, 0.5)).length / 3);
		let holdFrom = testBatches;
		const proxy = new HoldingProxy(
			sandbox.url,
			(batch): BatchFate => (batch < holdFrom ? 'pass' : 'answerLost'),
		);
		await proxy.start();
		const viaProxy = { ...env, CLOUDTEL_BASE_URL: proxy.url };
		// No wait: the decision follows the test in the same run (no reply yet: a tie, text 1).
		const args = runArgs('crash', csv, [
			'--test-share',
			'0.5',
			'--decide-after',
			'0s',
			'--batch-size',
			'3',
			'--concurrency',
			'1',
		]);
		try {
			const first = startCli(args, viaProxy);
			let ended = false;
			void first.done.then(() => (ended = true));
			await waitFor(() => ended || proxy.batches.length > testBatches, 30_000);
			expect(ended, (await Promise.race([first.done, Promise.resolve(undefined)]))?.stderr).toBe(
				false,
			);
			first.child.kill('SIGKILL');
			expect((await first.done).code).toBeNull();
			const decided = await status('crash');
			expect(decided.winner).toMatchObject({ index: 1, by: 'replies', byHand: false });

			// Now two of text 2's recipients answer: judged again, text 2 would win.
			const test = await ofCampaign('crash', list);
			const ofB = test.filter((m) => m.ExternalId!.startsWith('crash:v2:'));
			for (const m of ofB.slice(0, 2)) await driver.reply(m.To, m.From!, 'Yes!');
			await until(
				async () => ((await status('crash')).variants[1].replies === 2 ? true : undefined),
				20_000,
				'the replies in the ledger',
			);

			holdFrom = Infinity;
			const again = await cli(args, viaProxy);
			// The rows of the batch whose answer was lost are uncertain, not sent again.
			expect(again.code, again.stderr).toBe(3);
			const after = await status('crash');
			expect(after.winner).toEqual(decided.winner);
			expect(after.rows).toMatchObject({ held: 0, pending: 0, submitting: 0 });
			expect(after.rows.accepted + after.rows.uncertain).toBe(30);
			const all = await ofCampaign('crash', list);
			expect(all).toHaveLength(30);
			expect(new Set(all.map((m) => m.To)).size).toBe(30);
			const testSids = new Set(
				test
					.filter((m) =>
						proxy.batches.slice(0, testBatches).some((b) => b.externalIds.includes(m.ExternalId!)),
					)
					.map((m) => m.MessageSid),
			);
			for (const m of all.filter((x) => !testSids.has(x.MessageSid))) {
				expect(m.ExternalId).toMatch(/^crash:v1:\d+$/);
				expect(m.Text).toMatch(/our sale starts today$/);
			}
		} finally {
			await proxy.close();
		}
	}, 60_000);
});
