import { randomBytes } from 'node:crypto';
import type { Ledger } from '../storage/ledger';
import { CallbackProcessor } from '../daemon/callbacks/3-processor/callbackProcessor';
import { ForwardOutbox } from '../daemon/callbacks/6-forward/forwardOutbox';
import { callbackUrl } from '../daemon/callbacks/1-http/callbackUrls';
import { WebhookServer } from '../daemon/http/webhookServer';
import { JsonLogger } from '../daemon/jsonLogger';
import { openDaemonStore } from '../storage/openStores';

export interface DemoReceiver {
	receiptUrl: string;
	close(): Promise<void>;
}

/**
 * The worker daemon's own receipt path (webhook server, stored events, callback
 * processor), started in-process on a loopback port for the demo: its receipts reach the
 * ledger exactly as a `cloudtel worker`'s would. No reply rules, so nothing is forwarded.
 */
export async function startDemoReceiver(
	dbPath: string,
	ledger: Ledger,
	accountSid: string,
): Promise<DemoReceiver> {
	const log = new JsonLogger(() => undefined);
	const store = await openDaemonStore({ kind: 'sqlite', path: dbPath });
	const outbox = new ForwardOutbox(
		store,
		{},
		{ maxAttempts: 1, backoffMs: 1000, maxBackoffMs: 1000, concurrency: 1 },
		log,
	);
	const processor = new CallbackProcessor(store, ledger, [], outbox, log);
	processor.start();
	const secret = randomBytes(16).toString('hex');
	const server = new WebhookServer({
		host: '127.0.0.1',
		port: 0,
		secrets: [secret],
		accountSid,
		maxBodyBytes: 64 * 1024,
		maxConnections: 1024,
		maxConnectionsPerClient: 1024,
		store: (key, event, at) => store.recordEvent(key, event, at),
		stored: () => processor.kick(),
		health: async () => ({ canTakeCallbacks: true, degraded: [], details: {} }),
		log,
	});
	const port = await server.listen();
	return {
		receiptUrl: callbackUrl(`http://127.0.0.1:${port}`, secret, 'receipts'),
		close: async () => {
			await server.close();
			await processor.idle();
			await store.close();
		},
	};
}
