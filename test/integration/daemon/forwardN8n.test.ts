import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends, type StoreBackend } from '../../support/storeBackends';
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

const SECRET = 'forward-n8n-secret-0123456789';
const TRIGGER_SECRET = 'trigger-secret';

const cleanup = cleanupAfterEach();

/**
 * A worker on `backend`'s store over a sandbox of its own (receipts after 100 ms), forwarding to a
 * catcher that stands where n8n's trigger is and answers `statuses`; `settings(n8nUrl)` (outbox,
 * forward) complete its config. All of it stopped after the test.
 */
async function forwardingWorker(
	backend: StoreBackend,
	statuses: number[],
	settings: (n8nUrl: string) => Record<string, unknown>,
) {
	await ensureBuilt();
	const sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
	cleanup.push(() => sandbox.close());
	const driver = new SandboxDriver(sandbox);
	const n8n = await CallbackCatcher.start();
	cleanup.push(() => n8n.close());
	n8n.statuses = statuses;
	const dir = tempDir();
	const location = backend.location();
	const port = await freePort();
	const config = writeConfig(dir, {
		db: location.kind === 'sqlite' ? location.path : location.url,
		server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', secret: SECRET },
		...settings(n8n.url),
	});
	const env = {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
	};
	const worker = await WorkerProcess.start(config, env);
	cleanup.push(() => worker.stop('SIGKILL'));
	return { driver, n8n, port, worker, idle: () => storeIdle(location) };
}

/**
 * `forward.n8n`: the worker as n8n's intake. Every receipt and reply the provider sends it
 * (however often) reaches "n8n" (here a catcher standing where the CloudTel Trigger's URL
 * is) exactly once once n8n answers 2xx: as the provider's payload, with the event key as
 * Idempotency-Key, retried while n8n answers 503 or 404, given up on a 401.
 */
const backends = storeBackends();

describe.each(backends)('forward.n8n ($name)', (backend) => {
	it('hands each receipt and reply on once, as sent, with its event key, through an n8n outage', async () => {
		// n8n restarting: 503, then its webhook not registered yet (404), then up.
		const { driver, n8n, port, idle } = await forwardingWorker(
			backend,
			[503, 404, 200],
			(n8nUrl) => ({
				outbox: { concurrency: 1, backoffMs: 50, maxBackoffMs: 200 },
				forward: { n8n: { url: `${n8nUrl}/webhook/trigger-id/cloudtel?secret=${TRIGGER_SECRET}` } },
			}),
		);

		const base = `http://127.0.0.1:${port}/callbacks/${SECRET}`;
		const customers = ['+61491570401', '+61491570402', '+61491570403'];
		const sent: { MessageSid: string; From: string }[] = [];
		for (const to of customers)
			sent.push(
				await driver.send({
					To: to,
					Text: 'Reply to win',
					DeliveryReceipt: true,
					DeliveryReceiptWebhookUri: `${base}/receipts`,
					WebhookUri: `${base}/replies`,
				}),
			);
		const replySids: string[] = [];
		for (const [i, m] of sent.entries())
			replySids.push(await driver.reply(customers[i], m.From, `answer ${i}`));
		const keys = [
			...sent.map((m) => `receipt:${m.MessageSid}`),
			...replySids.map((sid) => `reply:${sid}`),
		];
		// Answered 200: every request after the first two.
		const delivered = () => n8n.requests.slice(2);
		await until(
			() => new Set(delivered().map((r) => r.headers['idempotency-key'])).size === keys.length,
			30_000,
			'every callback forwarded to n8n',
		);

		// The provider sends each callback again (a retry whose answer it lost), twice at once.
		const outbox = await driver.outbox();
		const callbacks = outbox.Callbacks.filter((c) => c.Url.startsWith(base));
		expect(callbacks.length).toBeGreaterThanOrEqual(keys.length);
		await Promise.all(
			callbacks.flatMap((c) =>
				[0, 1].map(() =>
					fetch(c.Url, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(c.Payload),
					}).then((r) => r.arrayBuffer()),
				),
			),
		);
		// Every copy answered and processed, nothing left to send: a repeat would have reached n8n by now.
		await until(() => idle(), 20_000, 'the worker to have nothing left to send');

		const ok = delivered();
		expect(ok.map((r) => r.headers['idempotency-key']).sort()).toEqual([...keys].sort());
		for (const r of ok) {
			expect(r.method).toBe('POST');
			expect(r.path).toBe('/webhook/trigger-id/cloudtel');
			expect(r.query.secret).toBe(TRIGGER_SECRET);
			const [kind, sid] = String(r.headers['idempotency-key']).split(':');
			const original = callbacks.find(
				(c) => c.MessageSid === sid && (kind === 'receipt') === (c.Kind === 'DeliveryReceipt'),
			);
			expect(r.body).toEqual(original.Payload);
		}
		// The first two attempts met the outage; what they carried went again, under the same key.
		expect(n8n.requests.length).toBe(keys.length + 2);
		for (const refused of n8n.requests.slice(0, 2))
			expect(ok.map((r) => r.headers['idempotency-key'])).toContain(
				refused.headers['idempotency-key'],
			);
	}, 120_000);
});

// On Postgres only: a refusal is the forwarder's judgement, not the store's (marking a forward
// failed is test/unit/worker/daemon/forwardOutbox.test.ts's, on both backends).
describe('forward.n8n refused', () => {
	it('gives up on a forward n8n refuses (401, a wrong secret), saying why', async () => {
		const { driver, n8n, port, worker, idle } = await forwardingWorker(
			backends[1],
			[401],
			(n8nUrl) => ({
				outbox: { backoffMs: 50, maxBackoffMs: 200 },
				forward: { n8n: { url: `${n8nUrl}/webhook/trigger-id/cloudtel`, events: ['receipt'] } },
			}),
		);
		const m = await driver.send({
			To: '+61491570411',
			Text: 'Hi',
			DeliveryReceipt: true,
			DeliveryReceiptWebhookUri: `http://127.0.0.1:${port}/callbacks/${SECRET}/receipts`,
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${SECRET}/replies`,
		});
		await driver.reply('+61491570411', m.From, 'not forwarded: replies are not in events');
		const failed = await until(
			() => worker.logs.find((l) => l.msg === 'forward failed'),
			20_000,
			'the forward to fail',
		);
		expect(failed).toMatchObject({ kind: 'n8n', event: `receipt:${m.MessageSid}` });
		expect(String(failed.reason)).toMatch(/HTTP 401 from n8n/);
		// The reply processed too, and nothing left to send: neither a retry nor the reply went.
		await until(() => idle(), 20_000, 'the worker to have nothing left to send');
		expect(n8n.requests.map((r) => r.headers['idempotency-key'])).toEqual([
			`receipt:${m.MessageSid}`,
		]);
	}, 120_000);
});
