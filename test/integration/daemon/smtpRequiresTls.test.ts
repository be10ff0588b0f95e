import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { cli } from '../worker/harness';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	SmtpSink,
	tempDir,
	workerOnSandbox,
	writeConfig,
	type WorkerProcess,
} from './harness';

const SECRET = 'smtp-tls-secret-0123456789';

let sandbox: RunningSandbox;
let smtp: SmtpSink;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0 });
	// A real SMTP server that offers no STARTTLS and would take AUTH PLAIN in clear.
	smtp = new SmtpSink(await freePort());
	await smtp.start();
}, 120_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await Promise.allSettled([sandbox?.close(), smtp?.stop()]);
});

describe('SMTP credentials never go out in clear', () => {
	it('a server without STARTTLS gets no AUTH and no reply: the forward waits, saying why', async () => {
		const started = await workerOnSandbox(sandbox, SECRET, {
			smtp: {
				host: '127.0.0.1',
				port: smtp.port,
				from: 'worker@example.com',
				user: smtp.user,
				password: smtp.password,
			},
			outbox: { maxAttempts: 50, backoffMs: 100, maxBackoffMs: 200 },
			replies: [{ actions: [{ type: 'forwardEmail', to: 'team@example.com' }] }],
		});
		worker = started.worker;
		const driver = new SandboxDriver(sandbox);
		const m = await driver.send({
			To: '+61491570301',
			Text: 'Reply to win',
			WebhookUri: `http://127.0.0.1:${started.port}/callbacks/${SECRET}/replies`,
		});
		await driver.reply('+61491570301', m.From, 'hello');
		const retried = await worker.waitFor(
			(l) => l.msg === 'forward will be retried',
			15_000,
			'the refused attempt',
		);
		expect(String(retried.reason)).toMatch(/STARTTLS|TLS/);
		// A few more attempts, none of them sending the password.
		await worker.waitFor(
			(l) => l.msg === 'forward will be retried' && Number(l.attempts) >= 3,
			15_000,
			'more attempts',
		);
		expect(smtp.auths).toEqual([]);
		expect(smtp.mails).toEqual([]);
		expect(worker.text).not.toContain(smtp.password);
	});

	it('plain SMTP needs allowInsecure: true, and only to a relay on this machine', async () => {
		const dir = tempDir();
		const config = writeConfig(dir, {
			provider: { baseUrl: sandbox.url, accountSid: 'A', authToken: 'T' },
			server: { publicUrl: 'https://w.example.com', secret: SECRET },
			smtp: { host: 'smtp.example.com', allowInsecure: true, from: 'worker@example.com' },
		});
		const result = await cli(['worker', '--config', config, '--check']);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain(
			'smtp.allowInsecure: is for a relay on this machine (localhost, 127.0.0.1, ::1), not smtp.example.com',
		);
		const local = writeConfig(
			dir,
			{
				provider: { baseUrl: sandbox.url, accountSid: 'A', authToken: 'T' },
				server: { publicUrl: 'https://w.example.com', secret: SECRET },
				smtp: { host: 'localhost', allowInsecure: true, from: 'worker@example.com' },
			},
			'local.yaml',
		);
		expect((await cli(['worker', '--config', local, '--check'])).code).toBe(0);
	});
});
