import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { runCampaign } from '../../support/runCampaign';
import { cli } from '../worker/harness';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

/**
 * Whoever holds the callback URL (it is in every message the provider keeps, and in any
 * proxy's log) attacks the running worker over HTTP. The worker is mid-rotation: its
 * campaign's messages carry the previous secret, which it still takes.
 */
const OLD_SECRET = 'old-callback-secret-0123';
const SECRET = 'new-callback-secret-4567';
const NUMBERS = ['+61491570101', '+61491570102', '+61491570103'];
const STRANGER = '+61491570999';

let sandbox: RunningSandbox;
let driver: SandboxDriver;
let catcher: CallbackCatcher;
let worker: WorkerProcess;
let dir: string;
let db: string;
let port: number;
/** The campaign's messages, by recipient. */
const sent: Record<string, { MessageSid: string; From: string; ExternalId: string }> = {};

function post(
	secret: string,
	route: 'receipts' | 'replies',
	body: Record<string, unknown>,
): Promise<Response> {
	return fetch(`http://127.0.0.1:${port}/callbacks/${secret}/${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

function reply(fields: Record<string, unknown>): Record<string, unknown> {
	return {
		MessageSid: randomUUID(),
		AccountSid: sandbox.demo.AccountSid,
		PropertySid: sandbox.demo.PropertySid,
		To: sent[NUMBERS[0]].From,
		ExternalId: '',
		Timestamp: Math.floor(Date.now() / 1000),
		...fields,
	};
}

async function withLedger<T>(read: (ledger: SqliteLedger) => Promise<T>): Promise<T> {
	const ledger = new SqliteLedger(db, { readonly: true });
	try {
		return await read(ledger);
	} finally {
		await ledger.close();
	}
}

const suppressed = (number: string) => withLedger((l) => l.isSuppressed(number));

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 50 });
	driver = new SandboxDriver(sandbox);
	catcher = await CallbackCatcher.start();
	dir = tempDir();
	db = join(dir, 'worker.db');
	port = await freePort();
	writeConfig(dir, {
		provider: { baseUrl: sandbox.url },
		db: 'worker.db',
		server: {
			publicUrl: `http://127.0.0.1:${port}`,
			port,
			host: '127.0.0.1',
			previousSecret: OLD_SECRET,
		},
		replies: [{ name: 'all', actions: [{ type: 'post', url: `${catcher.url}/replies` }] }],
	});
	worker = await WorkerProcess.start(join(dir, 'worker.config.yaml'), {
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: SECRET,
	});

	writeFileSync(join(dir, 'list.csv'), 'Phone\n' + NUMBERS.join('\n') + '\n');
	const base = `http://127.0.0.1:${port}/callbacks/${OLD_SECRET}`;
	const run = await runCampaign(sandbox, {
		csv: join(dir, 'list.csv'),
		db,
		name: 'alpha',
		text: 'Hi, reply STOP to opt out',
		callbacks: base,
	});
	expect(run.code, run.stderr).toBe(0);
	for (const m of (await driver.messages()).filter((m) =>
		String(m.ExternalId).startsWith('alpha:'),
	))
		sent[m.To] = m;
	// Receipts through the previous secret's URLs: a rotation loses none.
	await until(
		() => withLedger(async (l) => (await l.deliveryCounts('alpha')).awaitingReceipt === 0),
		15_000,
		'every receipt',
	);
	// 103 opts out, the way the provider tells it.
	await driver.reply(NUMBERS[2], sent[NUMBERS[2]].From, 'STOP');
	await until(() => suppressed(NUMBERS[2]), 10_000, 'the STOP');
}, 120_000);

afterAll(async () => {
	if (process.env.DEBUG_DAEMON) console.log(worker?.text, worker?.stderr);
	await worker?.stop('SIGKILL');
	await Promise.allSettled([sandbox?.close(), catcher?.close()]);
});

describe('a leaked callback URL cannot change who gets texted', () => {
	it('a callback naming another account is refused 401: a START from it puts no one back', async () => {
		const res = await post(
			OLD_SECRET,
			'replies',
			reply({
				From: NUMBERS[2],
				OriginalMessageSid: sent[NUMBERS[2]].MessageSid,
				Text: 'START',
				AccountSid: 'not-our-account',
			}),
		);
		expect(res.status).toBe(401);
		const bare = await post(
			OLD_SECRET,
			'replies',
			reply({
				From: NUMBERS[2],
				OriginalMessageSid: sent[NUMBERS[2]].MessageSid,
				Text: 'START',
				AccountSid: undefined,
			}),
		);
		expect(bare.status).toBe(401);
		expect(await suppressed(NUMBERS[2])).toBe(true);
		// Log lines reach the test a turn later, through the supervisor's pipe, in order: a
		// refusal of another kind made after both is the mark that both have been logged.
		await worker.waitFor(
			(l) => l.reason === 'callback for another account',
			10_000,
			'the refusal line',
		);
		expect(
			(await fetch(`http://127.0.0.1:${port}/callbacks/${OLD_SECRET}/replies`, { method: 'PUT' }))
				.status,
		).toBe(405);
		await worker.waitFor(
			(l) => l.reason === 'callback neither GET nor POST',
			10_000,
			'the marker refusal',
		);
		expect(worker.logs.filter((l) => l.reason === 'callback for another account')).toHaveLength(1);
	});

	it('a START answering a message this ledger did not send to that number is recorded and forwarded, not acted on', async () => {
		// Another recipient's message, then one no one sent.
		for (const original of [sent[NUMBERS[0]].MessageSid, randomUUID()]) {
			const forged = reply({ From: NUMBERS[2], OriginalMessageSid: original, Text: 'START' });
			expect((await post(SECRET, 'replies', forged)).status).toBe(200);
			await until(
				() => catcher.requests.find((r) => r.body?.MessageSid === forged.MessageSid),
				10_000,
				'the forward of the START',
			);
		}
		await until(
			() => worker.count((l) => l.msg === 'reply' && l.from !== undefined) >= 3,
			10_000,
			'the replies processed',
		);
		expect(await suppressed(NUMBERS[2])).toBe(true);
		expect(worker.count((l) => String(l.msg).startsWith('opt-in not acted on'))).toBe(2);
	});

	it('a START through the provider, answering our message to that number, puts it back', async () => {
		await driver.reply(NUMBERS[2], sent[NUMBERS[2]].From, 'START');
		await until(async () => !(await suppressed(NUMBERS[2])), 10_000, 'the START');
	});

	it('a STOP is always honoured; one answering no message of ours is logged so', async () => {
		const forged = reply({ From: STRANGER, OriginalMessageSid: randomUUID(), Text: 'STOP' });
		expect((await post(SECRET, 'replies', forged)).status).toBe(200);
		await until(() => suppressed(STRANGER), 10_000, 'the STOP');
		const line = await worker.waitFor(
			(l) => l.msg === 'opted out' && l.originalMessageSid === forged.OriginalMessageSid,
		);
		expect(line).toMatchObject({
			level: 'warn',
			originalUnknown: 'the message replied to is not one this ledger sent to the number',
		});
	});

	it("a receipt naming a row's ExternalId with a MessageSid not the row's changes nothing", async () => {
		const row = sent[NUMBERS[1]];
		const line = Number(row.ExternalId.split(':')[1]);
		const before = await withLedger((l) => l.delivery('alpha', line));
		expect(before).toMatchObject({ messageSid: row.MessageSid, status: 'Delivered' });
		const forged = {
			MessageSid: randomUUID(),
			AccountSid: sandbox.demo.AccountSid,
			PropertySid: sandbox.demo.PropertySid,
			From: row.From,
			To: NUMBERS[1],
			Status: 'Failed',
			ErrorCode: 'FORGED',
			ExternalId: row.ExternalId,
			Timestamp: Math.floor(Date.now() / 1000),
		};
		expect((await post(SECRET, 'receipts', forged)).status).toBe(200);
		await worker.waitFor(
			(l) => l.msg === 'delivery receipt for no campaign row' && l.messageSid === forged.MessageSid,
			10_000,
			'the forged receipt processed',
		);
		expect(await withLedger((l) => l.delivery('alpha', line))).toEqual(before);
		const rows = await withLedger(async (l) => {
			const out = [];
			for await (const r of l.rows('alpha')) out.push(r);
			return out;
		});
		expect(rows.find((r) => r.line === line)).toMatchObject({
			status: 'accepted',
			messageSid: row.MessageSid,
		});
	});

	it('receipts with ErrorCode __proto__, constructor or toString are counted like any other code', async () => {
		const run = await runCampaign(sandbox, {
			csv: join(dir, 'list.csv'),
			db,
			name: 'beta',
			text: 'Hello',
			flags: ['--from', 'CloudTel'],
		});
		expect(run.code, run.stderr).toBe(0);
		const messages = (await driver.messages()).filter((m) =>
			String(m.ExternalId).startsWith('beta:'),
		);
		const codes = ['__proto__', 'constructor', 'toString'];
		for (const [i, m] of messages.entries()) {
			const receipt = {
				MessageSid: m.MessageSid,
				AccountSid: sandbox.demo.AccountSid,
				PropertySid: sandbox.demo.PropertySid,
				From: m.From,
				To: m.To,
				Status: 'Failed',
				ErrorCode: codes[i],
				ExternalId: m.ExternalId,
				Timestamp: Math.floor(Date.now() / 1000),
			};
			expect((await post(SECRET, 'receipts', receipt)).status).toBe(200);
		}
		await until(
			() => withLedger(async (l) => (await l.deliveryCounts('beta')).awaitingReceipt === 0),
			10_000,
			'the receipts processed',
		);
		const report = await cli(['campaign', 'report', '--db', db, '--name', 'beta', '--json']);
		expect(report.code, report.stderr).toBe(0);
		const byCode = (
			JSON.parse(report.stdout) as { failuresByErrorCode: { errorCode: string; count: number }[] }
		).failuresByErrorCode;
		expect(byCode.map((c) => [c.errorCode, c.count]).sort()).toEqual([
			['__proto__', 1],
			['constructor', 1],
			['toString', 1],
		]);
	});

	it('a secret that is neither the current nor the previous one is refused', async () => {
		const res = await post(
			'some-other-secret-000000',
			'replies',
			reply({ From: STRANGER, OriginalMessageSid: randomUUID(), Text: 'hello' }),
		);
		expect(res.status).toBe(401);
	});
});
