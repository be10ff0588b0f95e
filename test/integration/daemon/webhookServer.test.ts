import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../../../api';
import { WebhookServer } from '../../../worker/src/daemon/http/webhookServer';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';

const SECRET = 'in-process-secret-0123';
const reply = { MessageSid: 'm-1', OriginalMessageSid: 'o-1', AccountSid: 'a', PropertySid: 'p', From: '+61491570101', To: '+61400000001', Text: 'hi', ExternalId: '', Timestamp: 1 };

/** A keep-alive POST, so a second request can ride the same connection. */
function post(port: number, path: string, body: unknown, agent: Agent): Promise<{ status: number; body: any }> {
	return new Promise((resolve, reject) => {
		const req = request({ port, host: '127.0.0.1', path, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
			let text = '';
			res.on('data', (d) => (text += d));
			res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
		});
		req.on('error', reject);
		req.end(JSON.stringify(body));
	});
}

describe('the webhook server', () => {
	it('on stop, answers the callback it is storing before it closes, and takes no new connection', async () => {
		let release!: () => void;
		const gate = new Promise<void>((r) => (release = r));
		let arrived!: () => void;
		const storing = new Promise<void>((r) => (arrived = r));
		const stored: CallbackEvent[] = [];
		const server = new WebhookServer({
			host: '127.0.0.1',
			port: 0,
			secrets: [SECRET],
			accountSid: 'a',
			maxBodyBytes: 4096,
			maxConnections: 1024,
			store: async (_key, event) => {
				arrived();
				await gate;
				stored.push(event);
				return true;
			},
			stored: () => {},
			health: async () => ({ canTakeCallbacks: true, degraded: [], details: {} }),
			log: new JsonLogger(() => {}),
		});
		const port = await server.listen();
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		const path = `/callbacks/${SECRET}/replies`;

		const inFlight = post(port, path, reply, agent);
		// The callback is being stored when the server is told to stop.
		await storing;
		const closing = server.close();
		release();
		expect(await inFlight).toEqual({ status: 200, body: { ok: true } });
		await closing;
		expect(stored).toHaveLength(1);
		await expect(post(port, path, { ...reply, MessageSid: 'm-2' }, new Agent())).rejects.toThrow(/ECONNREFUSED/);
		agent.destroy();
	});
});
