import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { newDatabase, sql } from '../../support/postgres/database';
import { RoundRobinProxy } from '../../support/roundRobinProxy';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	SmtpSink,
	tempDir,
	TEST_TICKS_ONLY,
	until,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';
import { cli } from '../worker/harness';

const SECRET = 'callback-secret-0123456789';
const ROWS = 1200;
/** Lines of the CSV that are not numbers: invalid, never sent. */
const INVALID = new Set([100, 700]);

let sandbox: RunningSandbox;
let driver: SandboxDriver;
let smtp: SmtpSink;
let proxy: RoundRobinProxy;
let db: string;
const workers: WorkerProcess[] = [];

function csv(): string {
	let text = 'Phone,Name\n';
	// Line 1 is the header: row i is on line i + 2.
	for (let i = 0; i < ROWS; i++)
		text += INVALID.has(i + 2)
			? `not-a-number-${i},N${i}\n`
			: `+614${String(20_000_000 + i).slice(-8)},N${i}\n`;
	return text;
}

beforeAll(async () => {
	await ensureBuilt();
	// Answers take a while, so the killed worker likely has requests in flight.
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000, latencyMs: 400 });
	driver = new SandboxDriver(sandbox);
	smtp = new SmtpSink(await freePort());
	await smtp.start();
	db = await newDatabase('cluster');
}, 180_000);

afterAll(async () => {
	if (process.env.DEBUG_DAEMON) for (const w of workers) console.log(w.text, w.stderr);
	await Promise.allSettled(workers.map((w) => w.stop('SIGKILL')));
	await Promise.allSettled([sandbox?.close(), smtp?.stop(), proxy?.close()]);
});

describe('three workers on one Postgres behind a load balancer', () => {
	it('send one run of the tick together; when one is SIGKILLed mid-run, nothing is sent twice or lost; each reply is forwarded once', async () => {
		const dir = tempDir();
		writeFileSync(join(dir, 'list.csv'), csv());
		const ports = [await freePort(), await freePort(), await freePort()];
		proxy = new RoundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}`));
		await proxy.start();
		// The same config on every machine, but for the port each listens on here.
		const configs = ports.map((port, i) =>
			writeConfig(
				dir,
				{
					provider: {
						baseUrl: sandbox.url,
						accountSid: sandbox.demo.AccountSid,
						authToken: sandbox.demo.AuthToken,
					},
					db,
					server: { publicUrl: proxy.url, port, host: '127.0.0.1', secret: SECRET },
					smtp: {
						host: '127.0.0.1',
						port: smtp.port,
						allowInsecure: true,
						from: 'worker@example.com',
						user: smtp.user,
						password: smtp.password,
					},
					campaigns: [
						{
							name: 'promo',
							cron: TEST_TICKS_ONLY,
							timeZone: 'UTC',
							csv: 'list.csv',
							toColumn: 'Phone',
							property: sandbox.demo.PropertySid,
							text: 'Hi {{Name}}',
							rate: 120,
							receipts: false,
						},
					],
					replies: [{ name: 'all', actions: [{ type: 'forwardEmail', to: 'inbox@example.com' }] }],
				},
				`worker${i}.config.yaml`,
			),
		);
		for (const config of configs) workers.push(await WorkerProcess.start(config));
		// The tick, on every worker once all three run, as the cron they share would fire it.
		const at = new Date(Math.floor(Date.now() / 1000) * 1000);
		for (const w of workers) w.tick('promo', at);
		const run = `promo-${at
			.toISOString()
			.replace(/\.\d{3}Z$/, 'Z')
			.replace(/[-:]/g, '')}`;
		const ofRun = async () =>
			(await driver.messages()).filter((m) => String(m.ExternalId).startsWith(`${run}:`));

		// Mid-run: the second worker dies without a word.
		await until(
			async () => ((await ofRun()).length >= 250 ? true : undefined),
			60_000,
			'the run to be under way',
		);
		const victim = workers[1];
		expect(victim.logs.some((l) => l.msg === 'campaign start')).toBe(true);
		victim.child.kill('SIGKILL');
		await victim.exited;

		const survivors = [workers[0], workers[2]];
		await until(
			() => survivors.some((w) => w.logs.some((l) => l.msg.startsWith('worker lost'))),
			20_000,
			'a survivor to notice the lost worker',
		);
		await until(
			() =>
				survivors.every((w) => w.logs.some((l) => l.msg === 'campaign summary')) ? true : undefined,
			90_000,
			'both survivors to finish the run',
		);

		// One run for the tick, in the runs and in the ledger.
		expect(await sql(db, `SELECT run FROM campaign_runs`)).toEqual([{ run }]);
		expect(await sql(db, `SELECT name FROM campaigns`)).toEqual([{ name: run }]);
		// Every worker sent part of it.
		for (const w of survivors)
			expect(w.logs.find((l) => l.msg === 'campaign summary')).toMatchObject({
				run,
				stop: 'finished',
			});

		const sent = await ofRun();
		const status = JSON.parse(
			(await cli(['campaign', 'status', '--db', db, '--name', run, '--json'])).stdout,
		);
		// No recipient twice.
		expect(new Set(sent.map((m) => m.To)).size).toBe(sent.length);
		// Nothing lost: each valid row was sent, or is listed as uncertain; nothing is left pending.
		expect(status.rows).toMatchObject({
			pending: 0,
			submitting: 0,
			invalid: INVALID.size,
			accepted: sent.length - countUncertainSent(sent, status.uncertainLines),
		});
		expect(status.uncertainLines).toHaveLength(status.rows.uncertain);
		const sentLines = new Set(sent.map((m) => Number(String(m.ExternalId).split(':')[1])));
		const uncertain = new Set<number>(status.uncertainLines);
		for (let line = 2; line < ROWS + 2; line++) {
			if (INVALID.has(line)) continue;
			expect(
				sentLines.has(line) || uncertain.has(line),
				`line ${line} is neither sent nor uncertain`,
			).toBe(true);
		}
		// The lost worker's chunks in flight, at most its 4 requests of 12: uncertain, not sent again.
		expect(status.rows.uncertain).toBeLessThanOrEqual(4 * 12);

		// Replies reach whichever worker the balancer picks, the dead one's share with a 502
		// first: each is recorded once and forwarded once.
		const repliers = sent.slice(0, 6);
		const replySids: string[] = [];
		for (const m of repliers)
			replySids.push(await driver.reply(m.To, m.From, `reply from ${m.To}`));
		await until(
			() => (replySids.every((sid) => smtp.about(sid).length > 0) ? true : undefined),
			30_000,
			'every reply forwarded',
		);
		// Nothing left to send: every event processed, every forward marked sent. No e-mail can follow.
		const left = async () =>
			(
				await sql<{ n: number }>(
					db,
					`SELECT (SELECT COUNT(*) FROM callback_events WHERE processed_at IS NULL) + (SELECT COUNT(*) FROM forwards WHERE state <> 'sent') AS n`,
				)
			)[0].n;
		await until(
			async () => Number(await left()) === 0,
			30_000,
			'the workers to have nothing left to send',
		);
		for (const sid of replySids) expect(smtp.about(sid), `reply ${sid}`).toHaveLength(1);
		expect(
			await sql(db, `SELECT COUNT(*)::int AS n FROM callback_events WHERE kind = 'reply'`),
		).toEqual([{ n: replySids.length }]);
		expect(await sql(db, `SELECT state, COUNT(*)::int AS n FROM forwards GROUP BY state`)).toEqual([
			{ state: 'sent', n: replySids.length },
		]);
	});
});

/** Rows the provider did take although their answer was lost: uncertain in the ledger, yet in the sandbox. */
function countUncertainSent(sent: { ExternalId?: string }[], uncertainLines: number[]): number {
	const lines = new Set(uncertainLines);
	return sent.filter((m) => lines.has(Number(String(m.ExternalId).split(':')[1]))).length;
}
