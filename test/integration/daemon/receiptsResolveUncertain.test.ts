import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { HoldingProxy } from '../../support/holdingProxy';
import { cli, startCli, summaryOf } from '../worker/harness';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const SECRET = 'receipts-secret-0123456789';
const ROWS = 40;
/** The sandbox fails these on purpose: two ending 0666 (UNDELIVERABLE), one 0667 (UNKNOWN_SUBSCRIBER). */
const FAILING: Record<number, string> = {
	3: '+61491580666',
	12: '+61491570666',
	17: '+61491570667',
};

let sandbox: RunningSandbox;
let proxy: HoldingProxy;
let worker: WorkerProcess | undefined;
let dir: string;
let receiptUrl: string;

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
	// Batches 0-1 answered; 2-3 reach the sandbox but their answers are lost; 4-5 never leave; later ones pass.
	proxy = new HoldingProxy(sandbox.url, (n) =>
		n === 2 || n === 3 ? 'answerLost' : n === 4 || n === 5 ? 'neverSent' : 'pass',
	);
	await proxy.start();
	dir = tempDir();
	const port = await freePort();
	writeConfig(dir, {
		provider: { baseUrl: sandbox.url },
		db: 'worker.db',
		server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
	});
	worker = await WorkerProcess.start(join(dir, 'worker.config.yaml'), {
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: SECRET,
	});
	receiptUrl = `http://127.0.0.1:${port}/callbacks/${SECRET}/receipts`;
}, 120_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await proxy?.close();
	await sandbox?.close();
});

async function status(
	db: string,
	name: string,
): Promise<{
	rows: Record<string, number>;
	uncertainLines: number[];
	delivery: {
		delivered: number;
		failed: number;
		failedByCode: Record<string, number>;
		awaitingReceipt: number;
	};
}> {
	const result = await cli(['campaign', 'status', '--db', db, '--name', name, '--json']);
	if (result.code !== 0) throw new Error(`status exited ${result.code}: ${result.stderr}`);
	return JSON.parse(result.stdout) as never;
}

describe('receipts resolve rows a crash left uncertain', () => {
	it('SIGKILL mid-campaign with receipts on, then resume: rows the sandbox received are accepted by their receipts, only the unsent stay uncertain, and --resend-uncertain sends just those', async () => {
		let csv = 'Phone,Name\n';
		for (let i = 0; i < ROWS; i++) csv += `${FAILING[i] ?? `+614915${71_000 + i}`},N${i}\n`;
		writeFileSync(join(dir, 'list.csv'), csv);
		const db = join(dir, 'worker.db');
		const env = {
			CLOUDTEL_BASE_URL: proxy.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		};
		const args = [
			'campaign',
			'run',
			'--db',
			db,
			'--name',
			'crashr',
			'--receipt-url',
			receiptUrl,
			'--rate',
			'0',
			'--batch-size',
			'5',
			'--concurrency',
			'4',
		];
		const driver = new SandboxDriver(sandbox);
		const ours = async () =>
			(await driver.messages()).filter((m) => String(m.ExternalId).startsWith('crashr:'));

		const run = startCli(
			[
				...args,
				'--csv',
				join(dir, 'list.csv'),
				'--property',
				sandbox.demo.PropertySid,
				'--text',
				'Hi {{Name}}',
			],
			env,
		);
		await until(
			async () => proxy.batches.length === 6 && (await ours()).length === 20,
			20_000,
			'four batches at the sandbox and two held',
		);
		run.child.kill('SIGKILL');
		expect((await run.done).code).toBeNull();

		// The worker stores the receipts of all 20 messages the sandbox received, 10 of them for rows still marked submitting.
		await until(
			async () => {
				const s = await status(db, 'crashr');
				return s.delivery.delivered + s.delivery.failed === 20;
			},
			20_000,
			'twenty receipts in the ledger',
		);

		const out = join(dir, 'out.csv');
		const resumed = await cli([...args, '--out', out], env);
		const summary = summaryOf(resumed);
		expect(resumed.code, resumed.stderr).toBe(3);
		const line = (id: string) => Number(id.split(':')[1]);
		const unsent = proxy
			.externalIds('neverSent')
			.map(line)
			.sort((a, b) => a - b);
		expect(unsent).toHaveLength(10);
		expect(summary.uncertainLines).toEqual(unsent);

		const atSandbox = new Map(
			(await ours()).map((m) => [line(m.ExternalId), m.MessageSid as string]),
		);
		expect(atSandbox.size).toBe(30);
		const rows = new Map(
			readFileSync(out, 'utf8')
				.trim()
				.split('\n')
				.slice(1)
				.map((l) => l.split(','))
				.map(([row, , state, sid]) => [Number(row), { state, sid }]),
		);
		for (const id of proxy.externalIds('answerLost'))
			expect(rows.get(line(id)), id).toEqual({ state: 'accepted', sid: atSandbox.get(line(id)) });
		for (const l of unsent) {
			expect(rows.get(l)?.state).toBe('uncertain');
			expect(atSandbox.has(l)).toBe(false);
		}

		await until(
			async () => (await status(db, 'crashr')).delivery.awaitingReceipt === 0,
			20_000,
			'every receipt',
		);
		const settled = await status(db, 'crashr');
		expect(settled.rows).toMatchObject({ accepted: 30, uncertain: 10 });
		// Which batch a row fell in depends on the order the requests reached the proxy: the
		// sandbox's deliberate failures are counted among the rows it did receive.
		const failedLines = Object.keys(FAILING)
			.map((i) => Number(i) + 2)
			.filter((l) => atSandbox.has(l));
		const failedByCode: Record<string, number> = {};
		for (const l of failedLines) {
			const code = FAILING[l - 2].endsWith('0666') ? 'UNDELIVERABLE' : 'UNKNOWN_SUBSCRIBER';
			failedByCode[code] = (failedByCode[code] ?? 0) + 1;
		}
		expect(failedLines.length).toBeGreaterThan(0);
		expect(settled.delivery).toEqual({
			delivered: 30 - failedLines.length,
			failed: failedLines.length,
			failedByCode,
			awaitingReceipt: 0,
			replied: 0,
			optedOut: 0,
		});
		const text = await cli(['campaign', 'status', '--db', db, '--name', 'crashr']);
		expect(text.stdout).toContain(
			`receipts: delivered ${30 - failedLines.length}, failed ${failedLines.length} (`,
		);

		// The rows their receipts accepted are timed from when their request left, and the report says so.
		const report = JSON.parse(
			(await cli(['campaign', 'report', '--db', db, '--name', 'crashr', '--json'])).stdout,
		);
		expect(report.sendTimes).toMatchObject({ fromAnswer: 20, fromRequest: 10 });
		expect(report.receiptSeconds.receipts).toBe(30);
		expect(report.timeline.sends.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(
			30,
		);

		const resend = await cli([...args, '--resend-uncertain'], env);
		expect(resend.code, resend.stderr).toBe(0);
		const ids = (await ours()).map((m) => m.ExternalId as string);
		expect(ids).toHaveLength(ROWS);
		expect(new Set(ids).size).toBe(ROWS);
		// Only the ten unsent rows went again.
		expect(
			proxy.batches
				.slice(6)
				.flatMap((b) => b.externalIds.map(line))
				.filter((l) => unsent.includes(l))
				.sort((a, b) => a - b),
		).toEqual(unsent);
	}, 120_000);
});

describe('receipts resolve rows whose answer was cut off', () => {
	it('a campaign whose answers are cut off ends with those rows uncertain; their receipts accept them, and the report times them from when their request left', async () => {
		let csv = 'Phone,Name\n';
		for (let i = 0; i < 20; i++) csv += `+614915${72_000 + i},C${i}\n`;
		writeFileSync(join(dir, 'cut.csv'), csv);
		const db = join(dir, 'worker.db');
		// The second and third batches reach the sandbox, which sends them, but their answers never come back.
		const cutter = new HoldingProxy(sandbox.url, (n) =>
			n === 1 || n === 2 ? 'answerCut' : 'pass',
		);
		await cutter.start();
		try {
			const env = {
				CLOUDTEL_BASE_URL: cutter.url,
				CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
				CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
			};
			const started = Date.now();
			const run = await cli(
				[
					'campaign',
					'run',
					'--db',
					db,
					'--name',
					'cutr',
					'--csv',
					join(dir, 'cut.csv'),
					'--property',
					sandbox.demo.PropertySid,
					'--text',
					'Hi {{Name}}',
					'--receipt-url',
					receiptUrl,
					'--rate',
					'0',
					'--batch-size',
					'5',
					'--concurrency',
					'1',
				],
				env,
			);
			const ended = Date.now();
			const cut = cutter.externalIds('answerCut').map((id) => Number(id.split(':')[1]));
			expect(cut).toHaveLength(10);
			// Those rows end uncertain, unless a receipt (100 ms after the send) settled them first,
			// as it may on a busy machine: never a row whose answer came. The exit says which.
			const uncertain: number[] = summaryOf(run).uncertainLines;
			expect(cut).toEqual(expect.arrayContaining(uncertain));
			expect(run.code, run.stderr).toBe(uncertain.length > 0 ? 3 : 0);

			await until(
				async () =>
					(await status(db, 'cutr')).delivery.awaitingReceipt === 0 &&
					(await status(db, 'cutr')).rows.accepted === 20,
				20_000,
				'every receipt, the uncertain rows accepted by theirs',
			);
			const report = await cli(['campaign', 'report', '--db', db, '--name', 'cutr', '--json']);
			expect(report.code, report.stderr).toBe(0);
			const r = JSON.parse(report.stdout);
			expect(r.funnel).toMatchObject({ sent: 20, delivered: 20 });
			expect(r.sendTimes).toEqual({
				fromAnswer: 10,
				fromRequest: 10,
				note: expect.stringMatching(/when its request left/),
			});
			// Every message timed: all twenty in the timeline and in the time to receipt.
			expect(r.receiptSeconds.receipts).toBe(20);
			const sends = r.timeline.sends as { at: string; count: number }[];
			expect(sends.reduce((n, b) => n + b.count, 0)).toBe(20);
			for (const b of sends) {
				expect(Date.parse(b.at)).toBeGreaterThanOrEqual(
					Math.floor(started / 1000 / r.timeline.bucketSeconds) * r.timeline.bucketSeconds * 1000,
				);
				expect(Date.parse(b.at)).toBeLessThanOrEqual(ended);
			}
			expect(r.receiptSeconds.p95).toBeLessThan(10);
			const text = await cli(['campaign', 'report', '--db', db, '--name', 'cutr']);
			expect(text.stdout).toContain(
				'send times: 10 from the answer accepting them, 10 from when their request left (answer lost, accepted by their receipt)',
			);
			const html = join(dir, 'cutr.html');
			expect(
				(await cli(['campaign', 'report', '--db', db, '--name', 'cutr', '--html', html])).code,
			).toBe(0);
			expect(readFileSync(html, 'utf8')).toMatch(
				/data-figure="sendTimes.fromRequest" data-value="10">10 of the 20 messages sent had their answer lost/,
			);
		} finally {
			await cutter.close();
		}
	}, 120_000);
});
