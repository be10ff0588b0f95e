import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeIdle } from '../../support/storeIdle';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const SECRET = 'reload-standby-secret-0123456789';

const cleanup = cleanupAfterEach();

/**
 * n8n's webhook for forward.n8n, recording each request's Idempotency-Key as it arrives;
 * its answer to the first is held until `release`, so the copy that sent it cannot finish.
 * `order` has the keys and, where it came, `released`: what arrived while the first was held.
 */
async function heldReceiver() {
	const keys: string[] = [];
	const order: string[] = [];
	let releaseHeld!: () => void;
	const held = new Promise<void>((r) => (releaseHeld = r));
	const release = () => {
		if (!order.includes('released')) order.push('released');
		releaseHeld();
	};
	const server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			keys.push(String(req.headers['idempotency-key']));
			order.push(String(req.headers['idempotency-key']));
			if (keys.length === 1) void held.then(() => res.writeHead(200).end());
			else res.writeHead(200).end();
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	cleanup.push(() => {
		release();
		server.closeAllConnections();
		return new Promise<void>((r) => server.close(() => r()));
	});
	return {
		keys,
		order,
		release,
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/cloudtel`,
	};
}

/**
 * `kill -HUP` while the running copy still waits on a forward: the new copy takes the
 * callbacks that arrive meanwhile, but processes and forwards nothing until the old copy
 * has exited. Were it to start at once, the two would work one outbox together, and the
 * new copy's look for attempts cut off by a crash, when it begins, would find its own
 * attempt still under way and send it a second time.
 */
describe('a reload while the running copy finishes a forward', () => {
	it('the new copy stores a reply at once, forwards it only once the old copy has exited, and each reply reaches n8n once', async () => {
		await ensureBuilt();
		const sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000 });
		cleanup.push(() => sandbox.close());
		const driver = new SandboxDriver(sandbox);
		const n8n = await heldReceiver();
		const dir = tempDir();
		const port = await freePort();
		const config = writeConfig(dir, {
			db: `${dir}/worker.db`,
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', secret: SECRET },
			outbox: { backoffMs: 50, maxBackoffMs: 200 },
			forward: { n8n: { url: n8n.url, events: ['reply'] } },
		});
		const env = {
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		};
		const worker = await WorkerProcess.start(config, env);
		cleanup.push(() => worker.stop('SIGKILL'));
		const customer = '+61491570431';
		const sent = await driver.send({
			To: customer,
			Text: 'Reply to win',
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${SECRET}/replies`,
		});

		const first = await driver.reply(customer, sent.From, 'first');
		await until(() => n8n.keys.length === 1, 20_000, 'the first forward at n8n');
		process.kill(worker.child.pid!, 'SIGHUP');
		await worker.waitFor(
			(l) =>
				l.msg ===
				'reload: the new copy takes callbacks; the old one finishes what it took and exits',
			60_000,
			'the new copy taking callbacks',
		);
		const second = await driver.reply(customer, sent.From, 'second');
		// Taken and answered 200 by the new copy, while the old one still waits on n8n; whether
		// it was forwarded before the old copy could finish is read from the order below.
		await until(() => driver.callbackDelivered(second), 20_000, 'the second reply answered');
		expect(worker.count((l) => l.msg === 'reload done')).toBe(0);

		n8n.release();
		await worker.waitFor((l) => l.msg === 'reload done', 30_000, 'the old copy to exit');
		await until(() => n8n.keys.length >= 2, 20_000, 'the second forward at n8n');
		// Nothing left to send: a repeat would have come by now.
		await until(
			() => storeIdle({ kind: 'sqlite', path: `${dir}/worker.db` }),
			20_000,
			'the worker to have nothing left to send',
		);
		expect(n8n.order).toEqual([`reply:${first}`, 'released', `reply:${second}`]);
		expect(worker.count((l) => l.msg === 'forward interrupted; sending again')).toBe(0);
		// The old copy recorded its forward as sent before it exited.
		expect(worker.logs.find((l) => l.msg === 'worker stopped')).toMatchObject({
			reason: 'SIGTERM',
			outbox: { sending: 0, sent: 1 },
		});
		expect(await worker.stop('SIGTERM')).toBe(0);
	}, 120_000);
});
