import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { openDaemonStore } from '../../../worker/src/storage/openStores';
import { storeIdle } from '../../support/storeIdle';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	SmtpSink,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const SECRET = 'outbox-secret-0123456789';
const REPLIES = 24;

let sandbox: RunningSandbox;
let driver: SandboxDriver;
let smtp: SmtpSink;
let dir: string;
let config: string;
let env: Record<string, string>;
let worker: WorkerProcess | undefined;
/** Recipient and leased number of each message "the campaign" sent. */
const sent: { to: string; leased: string }[] = [];
/** Inbound MessageSids whose callback the worker answered 200. */
const accepted: string[] = [];

async function reply(i: number): Promise<string> {
	const sid = await driver.reply(sent[i].to, sent[i].leased, `reply number ${i}`);
	await until(() => driver.callbackDelivered(sid), 5000, `the worker to accept reply ${i}`);
	accepted.push(sid);
	return sid;
}

async function forwards() {
	const store = await openDaemonStore({ kind: 'sqlite', path: join(dir, 'worker.db') });
	try {
		return await store.forwardCounts();
	} finally {
		await store.close();
	}
}

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000 });
	driver = new SandboxDriver(sandbox);
	smtp = new SmtpSink(await freePort());
	await smtp.start();
	dir = tempDir();
	const port = await freePort();
	env = {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
	};
	config = writeConfig(
		dir,
		{
			db: 'worker.db',
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', secret: SECRET },
			smtp: {
				host: '127.0.0.1',
				port: smtp.port,
				allowInsecure: true,
				from: 'worker@example.com',
				user: smtp.user,
				password: smtp.password,
			},
			outbox: { maxAttempts: 500, backoffMs: 50, maxBackoffMs: 300 },
			replies: [{ actions: [{ type: 'forwardEmail', to: 'team@example.com' }] }],
		},
		'worker.config.json',
	);
	// What a campaign run of this worker's would have sent: leased numbers, its reply URL.
	for (let i = 0; i < REPLIES; i++) {
		const to = `+614915702${String(i).padStart(2, '0')}`;
		const m = await driver.send({
			To: to,
			Text: 'Reply to win',
			ExternalId: `promo-20300101T000000Z:${i + 2}`,
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${SECRET}/replies`,
		});
		sent.push({ to, leased: m.From });
	}
	worker = await WorkerProcess.start(config, env);
}, 120_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await Promise.allSettled([sandbox?.close(), smtp?.stop()]);
});

describe('the outbox across an SMTP outage and restarts', () => {
	it('forwards every reply exactly once while SMTP goes down and up and the worker restarts, gracefully and not', async () => {
		// SMTP up: forwarded at once.
		for (let i = 0; i < 4; i++) await reply(i);
		await until(
			() => accepted.every((sid) => smtp.about(sid).length === 1),
			10_000,
			'the first e-mails',
		);

		// SMTP down: replies are still accepted, and wait in the outbox.
		await smtp.stop();
		for (let i = 4; i < 10; i++) await reply(i);
		await worker!.waitFor((l) => l.msg === 'forward will be retried', 10_000, 'a retry');

		// A graceful restart in the middle: nothing is lost.
		expect(await worker!.stop('SIGTERM')).toBe(0);
		const waiting = await forwards();
		expect(waiting).toMatchObject({ pending: 6, sending: 0, sent: 4, failed: 0 });
		worker = await WorkerProcess.start(config, env);
		for (let i = 10; i < 16; i++) await reply(i);

		// A crash in the middle, while forwards are being retried: nothing is lost either.
		await worker.waitFor(
			(l) => l.msg === 'forward will be retried',
			10_000,
			'a retry after the restart',
		);
		await worker.stop('SIGKILL');
		worker = await WorkerProcess.start(config, env);
		for (let i = 16; i < 20; i++) await reply(i);

		// SMTP back, once the copy after the crash has met the outage too: everything goes, each once.
		await worker.waitFor(
			(l) => l.msg === 'forward will be retried',
			10_000,
			'a retry after the crash',
		);
		await smtp.start();
		for (let i = 20; i < REPLIES; i++) await reply(i);
		await until(() => accepted.every((sid) => smtp.about(sid).length > 0), 20_000, 'every e-mail');
		// Nothing left to send: a second e-mail of any reply would have gone by now.
		await until(
			() => storeIdle({ kind: 'sqlite', path: join(dir, 'worker.db') }),
			20_000,
			'the worker to have nothing left to send',
		);
		for (const sid of accepted) expect(smtp.about(sid), sid).toHaveLength(1);
		expect(smtp.mails).toHaveLength(REPLIES);
		expect(
			smtp.mails.every(
				(m) => m.to[0] === 'team@example.com' && m.text.includes('Campaign: promo (row '),
			),
		).toBe(true);

		expect(await worker.stop('SIGTERM')).toBe(0);
		expect(await forwards()).toMatchObject({
			sent: REPLIES,
			pending: 0,
			sending: 0,
			failed: 0,
			uncertain: 0,
		});
	});

	it('marks a forward failed at the attempt limit and reports it', async () => {
		const port = await freePort();
		const limited = writeConfig(
			dir,
			{
				db: 'limited.db',
				server: {
					publicUrl: `http://127.0.0.1:${port}`,
					port,
					host: '127.0.0.1',
					secret: SECRET,
					reportToken: 'outbox-report-token-0123456789',
				},
				smtp: {
					host: '127.0.0.1',
					port: await freePort(),
					allowInsecure: true,
					from: 'worker@example.com',
				},
				outbox: { maxAttempts: 3, backoffMs: 20, maxBackoffMs: 50 },
				replies: [{ actions: [{ type: 'forwardEmail', to: 'team@example.com' }] }],
			},
			'limited.config.yaml',
		);
		const m = await driver.send({
			To: '+61491570299',
			Text: 'Reply to win',
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${SECRET}/replies`,
		});
		worker = await WorkerProcess.start(limited, env);
		const sid = await driver.reply('+61491570299', m.From, 'anyone there?');
		const failed = await worker.waitFor(
			(l) => l.msg === 'forward failed',
			10_000,
			'the failure report',
		);
		expect(failed).toMatchObject({
			level: 'error',
			kind: 'forwardEmail',
			replyMessageSid: sid,
			attempts: 3,
		});
		expect(failed.reason).toMatch(/^gave up after 3 attempts; last: (ESOCKET|ECONNECTION)\b/);
		const health = (await (
			await fetch(`http://127.0.0.1:${port}/health`, {
				headers: { authorization: 'Bearer outbox-report-token-0123456789' },
			})
		).json()) as any;
		expect(health.outbox).toMatchObject({ failed: 1, pending: 0 });
		expect(await worker.stop('SIGTERM')).toBe(0);
	});
});
