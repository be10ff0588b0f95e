import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const SECRET = 'log-flood-secret-0123456789';
const REPLIER = '+61491570103';

let sandbox: RunningSandbox;
let worker: WorkerProcess;
let port: number;

/** A POST that promises a body and goes away halfway through it. */
/** A request refused for `reason`, answered `status`, whose log line has arrived. */
async function marker(method: string, path: string, status: number, reason: string): Promise<void> {
	expect((await fetch(`http://127.0.0.1:${port}${path}`, { method })).status).toBe(status);
	await worker.waitFor((l) => l.reason === reason, 10_000, `the line refusing ${method} ${path}`);
}

function abortedPost(): Promise<void> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1', () => {
			socket.write(
				`POST /callbacks/${SECRET}/replies HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"MessageSid": "`,
			);
			setTimeout(() => socket.destroy(), 20);
		});
		socket.on('close', () => resolve());
		socket.on('error', () => undefined);
	});
}

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0 });
	const dir = tempDir();
	port = await freePort();
	const config = writeConfig(dir, {
		provider: { baseUrl: sandbox.url },
		db: 'worker.db',
		server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
	});
	worker = await WorkerProcess.start(config, {
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: SECRET,
	});
}, 120_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await sandbox?.close();
});

describe('the log cannot be flooded, and keeps numbers out', () => {
	it('refused requests are one line per reason a minute, with their count', async () => {
		const before = worker.text.length;
		for (let i = 0; i < 25; i++) {
			await Promise.all(
				Array.from({ length: 20 }, () =>
					fetch(`http://127.0.0.1:${port}/callbacks/wrong-secret-${i}/receipts`, {
						method: 'POST',
						body: '{}',
					}).then((r) => expect(r.status).toBe(401)),
				),
			);
		}
		// Lines reach the test a turn later, through the supervisor's pipe, in order: a refusal
		// of another kind made after them all is the mark that they have all been logged.
		await worker.waitFor(
			(l) => l.reason === 'wrong or missing callback secret',
			10_000,
			'the refusal line',
		);
		await marker('PUT', `/callbacks/${SECRET}/receipts`, 405, 'callback neither GET nor POST');
		// 500 requests (and the marker), a few hundred bytes of log.
		expect(worker.text.length - before).toBeLessThan(2000);
		const refused = worker.logs.filter((l) => l.reason === 'wrong or missing callback secret');
		expect(refused).toHaveLength(1);
		expect(refused[0]).toMatchObject({ level: 'warn', msg: 'request refused', count: 1 });
	});

	it('clients that go away mid-request are not errors (debug, which the default level leaves out)', async () => {
		for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 10 }, () => abortedPost()));
		// Whatever the aborts logged has arrived once a line made after them has.
		await marker('GET', '/no-such-path', 404, 'no such path');
		expect(worker.logs.filter((l) => l.level === 'error')).toEqual([]);
	});

	it('phone numbers are masked in the log', async () => {
		const driver = new SandboxDriver(sandbox);
		const m = await driver.send({
			To: REPLIER,
			Text: 'Reply STOP to opt out',
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${SECRET}/replies`,
		});
		await driver.reply(REPLIER, m.From, 'STOP');
		const line = await worker.waitFor((l) => l.msg === 'opted out', 10_000, 'the opt-out');
		expect(line.from).toBe('+6149****103');
		expect(worker.text).not.toContain(REPLIER);
		expect(worker.text).not.toContain(m.From);
	});

	it('at a stop, the count of what was refused since the last line is logged', async () => {
		expect(await worker.stop('SIGTERM')).toBe(0);
		await until(() => worker.logs.find((l) => l.msg === 'worker stopped'), 10_000, 'the stop');
		const counted = worker.logs.filter(
			(l) => l.msg === 'requests refused' && l.reason === 'wrong or missing callback secret',
		);
		expect(counted).toHaveLength(1);
		expect(counted[0]).toMatchObject({ level: 'warn', count: 499 });
	});
});
