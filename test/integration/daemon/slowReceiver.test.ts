import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackEvent, CampaignEvent } from '../../../api';
import { EventForwarder } from '../../../worker/src/daemon/callbacks/6-forward/eventForwarder';
import { ForwardOutbox } from '../../../worker/src/daemon/callbacks/6-forward/forwardOutbox';
import { N8nForwarder } from '../../../worker/src/daemon/callbacks/6-forward/n8nForwarder';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import { openDaemonStore } from '../../../worker/src/storage/openStores';
import { storeBackends } from '../../support/storeBackends';

const sqlite = storeBackends().filter((b) => b.name === 'sqlite');
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0).reverse()) await close();
});

/** Waits for `check` (polled), at most `ms`. Not harness.ts's: that builds the worker, which this test does not run. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

/** An events URL that takes the connection and the request and never answers. */
async function hungReceiver(): Promise<{ url: string; requests: () => number }> {
	let requests = 0;
	const sockets = new Set<Socket>();
	const server: Server = createServer(() => void requests++);
	server.on('connection', (s: Socket) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	closers.push(() => {
		for (const s of sockets) s.destroy();
		return new Promise<void>((r) => server.close(() => r()));
	});
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
		requests: () => requests,
	};
}

describe.each(sqlite)('a slow receiver slows only itself ($name)', (backend) => {
	it('four events URLs that never answer: a reply forwarded to n8n arrives while they hold their requests', async () => {
		const store = await openDaemonStore(backend.location());
		closers.push(() => store.close());
		const arrived: number[] = [];
		const n8n = createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				arrived.push(Date.now());
				res.end('{}');
			});
		});
		await new Promise<void>((r) => n8n.listen(0, '127.0.0.1', r));
		closers.push(() => new Promise<void>((r) => n8n.close(() => r())));
		const hung = await Promise.all([1, 2, 3, 4].map(() => hungReceiver()));

		const log = new JsonLogger(() => {});
		const outbox = new ForwardOutbox(
			store,
			{},
			{ maxAttempts: 12, backoffMs: 1000, maxBackoffMs: 600_000, concurrency: 4 },
			log,
			new N8nForwarder(() => ({
				url: `http://127.0.0.1:${(n8n.address() as AddressInfo).port}/webhook/cloudtel`,
			})),
			new EventForwarder({
				worker: () => undefined,
				campaignUrl: () => undefined,
				outboundAllow: () => ['127.0.0.1'],
			}),
		);
		outbox.start();
		closers.push(() => void outbox.stop());

		// Four API campaigns' campaign.started, each to its own events URL, which hangs.
		const started = (i: number): CampaignEvent => ({
			id: `campaign.started:c${i}`,
			type: 'campaign.started',
			occurredAt: new Date().toISOString(),
			campaign: `c${i}`,
			data: {},
		});
		await store.queueForwards(
			hung.map((h, i) => ({
				eventKey: `campaign.started:c${i}`,
				actionKey: 'event',
				payload: { action: { type: 'event', to: 'campaign', url: h.url }, event: started(i) },
			})),
			Date.now(),
		);
		outbox.kick();
		await until(
			() => hung.every((h) => h.requests() === 1),
			20_000,
			'every events URL holding its POST',
		);

		const reply: CallbackEvent = {
			kind: 'reply',
			data: {
				MessageSid: 'r-1',
				OriginalMessageSid: 'o-1',
				AccountSid: 'a',
				PropertySid: 'p',
				From: '+61491570101',
				To: '+61400000001',
				Text: 'STOP',
				ExternalId: '',
				Timestamp: 1,
			},
		} as CallbackEvent;
		const queuedAt = Date.now();
		// What the reply's n8n forward stores: its action, and the event it carries.
		const payload = { action: { type: 'n8n' }, event: reply, receivedAt: queuedAt };
		await store.queueForwards(
			[
				{
					eventKey: 'reply:r-1',
					actionKey: 'n8n',
					payload,
				},
			],
			queuedAt,
		);
		outbox.kick();
		// Each hung POST is held 30 s: a reply waiting for a free slot could not arrive first.
		await until(() => arrived.length > 0, 5_000, 'the reply at n8n');
		expect(hung.map((h) => h.requests())).toEqual([1, 1, 1, 1]);
	}, 20_000);
});
