import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebhookServer } from '../../../worker/src/daemon/http/webhookServer';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';

const SECRET = 'slow-clients-secret-0123';
const reply = (i: number) => ({
	MessageSid: `m-${i}`,
	OriginalMessageSid: 'o-1',
	AccountSid: 'a',
	PropertySid: 'p',
	From: '+61491570101',
	To: '+61400000001',
	Text: 'hi',
	ExternalId: '',
	Timestamp: 1,
});

/** One callback on a connection of its own, from 127.0.0.1: its status, or the network error. */
function callback(port: number, i: number): Promise<number | string> {
	return new Promise((resolve) => {
		const req = request(
			{
				port,
				host: '127.0.0.1',
				localAddress: '127.0.0.1',
				path: `/callbacks/${SECRET}/replies`,
				method: 'POST',
				agent: false,
				headers: { 'content-type': 'application/json' },
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode!));
			},
		);
		req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
		req.end(JSON.stringify(reply(i)));
	});
}

/**
 * Connections from one address that send a request a byte at a time and open again once
 * closed (as the red-team's client did): `head` a callback's request line and headers that
 * never end, `body` whole headers and a body that never ends. Each connection's lifetime is
 * kept, to see how long the server let it hold its place.
 */
function slowClients(port: number, from: string, count: number, kind: 'head' | 'body') {
	const lifetimes: number[] = [];
	const open = new Map<Socket, number | undefined>();
	const timers = new Set<NodeJS.Timeout>();
	let on = true;
	const later = (ms: number, fn: () => void) => {
		const t = setTimeout(() => {
			timers.delete(t);
			fn();
		}, ms);
		timers.add(t);
	};
	const start = (): void => {
		const socket = connect({ port, host: '127.0.0.1', localAddress: from });
		open.set(socket, undefined);
		const drip = setInterval(() => socket.write(kind === 'head' ? 'a' : '{'), 3000);
		socket.on('connect', () => {
			// From its first byte: a wait to be connected (a full listen backlog) is no place held on the server.
			open.set(socket, Date.now());
			socket.write(
				kind === 'head'
					? `POST /callbacks/${SECRET}/replies HTTP/1.1\r\nHost: x\r\nX-Slow: `
					: `POST /callbacks/${SECRET}/replies HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
			);
		});
		socket.on('error', () => undefined);
		// Reads what it is sent (a 408), so it sees its connection closed.
		socket.resume();
		socket.on('close', () => {
			clearInterval(drip);
			const opened = open.get(socket);
			open.delete(socket);
			if (opened !== undefined) lifetimes.push(Date.now() - opened);
			// Spread out, as many clients' would be: not all at once into the listen backlog.
			if (on) later(2000 + Math.random() * 1000, start);
		});
	};
	for (let i = 0; i < count; i++) later(i, start);
	return {
		lifetimes,
		/** Stops the attack; a connection still open counts for as long as it has lived. */
		stop(): number[] {
			on = false;
			for (const t of timers) clearTimeout(t);
			for (const [socket, opened] of open) {
				if (opened !== undefined) lifetimes.push(Date.now() - opened);
				socket.destroy();
			}
			return lifetimes;
		},
	};
}

describe('slow clients cannot take the callbacks', () => {
	it('1,030 slow connections from one address: every real callback is answered 200 throughout, and each slow request is dropped within its timeout', async () => {
		const server = new WebhookServer({
			host: '127.0.0.1',
			port: 0,
			secrets: [SECRET],
			accountSid: 'a',
			maxBodyBytes: 64 * 1024,
			maxConnections: 1024,
			maxConnectionsPerClient: 64,
			store: async () => true,
			stored: () => {},
			health: async () => ({ canTakeCallbacks: true, degraded: [], details: {} }),
			log: new JsonLogger(() => {}),
		});
		const port = await server.listen();
		const heads = slowClients(port, '127.0.0.2', 1030, 'head');
		const bodies = slowClients(port, '127.0.0.3', 64, 'body');
		const answers: (number | string)[] = [];
		try {
			// Past headersTimeout (10 s), so the slow connections are dropped and open again meanwhile.
			const until = Date.now() + 13_000;
			for (let i = 0; Date.now() < until; i++) {
				answers.push(await callback(port, i));
				await new Promise((r) => setTimeout(r, 100));
			}
		} finally {
			heads.stop();
			bodies.stop();
			await server.close();
		}
		expect(answers.length).toBeGreaterThan(50);
		expect(answers.filter((a) => a !== 200)).toEqual([]);
		// headersTimeout (10 s), checked every second; a callback's body has 5 s.
		expect(Math.max(...heads.lifetimes)).toBeLessThan(12_000);
		expect(Math.max(...bodies.lifetimes)).toBeLessThan(7_000);
	}, 20_000);
});
