import { Dashboard } from '../../../worker/src/daemon/dashboard/dashboard';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../../../api';
import { WebhookServer } from '../../../worker/src/daemon/http/webhookServer';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import type { Ledger } from '../../../worker/src/storage/ledger';

const SECRET = 'in-process-secret-0123';
const reply = {
	MessageSid: 'm-1',
	OriginalMessageSid: 'o-1',
	AccountSid: 'a',
	PropertySid: 'p',
	From: '+61491570101',
	To: '+61400000001',
	Text: 'hi',
	ExternalId: '',
	Timestamp: 1,
};

/** A keep-alive POST, so a second request can ride the same connection. */
function post(
	port: number,
	path: string,
	body: unknown,
	agent: Agent,
): Promise<{ status: number; body: any }> {
	return new Promise((resolve, reject) => {
		const req = request(
			{
				port,
				host: '127.0.0.1',
				path,
				method: 'POST',
				agent,
				headers: { 'content-type': 'application/json' },
			},
			(res) => {
				let text = '';
				res.on('data', (d) => (text += d));
				res.on('end', () =>
					resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }),
				);
			},
		);
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
			maxConnectionsPerClient: 64,
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
		await expect(post(port, path, { ...reply, MessageSid: 'm-2' }, new Agent())).rejects.toThrow(
			/ECONNREFUSED/,
		);
		agent.destroy();
	});
});

function server(
	lines: string[],
	overrides: Partial<ConstructorParameters<typeof WebhookServer>[0]> = {},
): WebhookServer {
	return new WebhookServer({
		host: '127.0.0.1',
		port: 0,
		secrets: [SECRET],
		accountSid: 'a',
		maxBodyBytes: 2048,
		maxConnections: 1024,
		maxConnectionsPerClient: 64,
		store: async () => true,
		stored: () => {},
		health: async () => ({ canTakeCallbacks: true, degraded: [], details: {} }),
		log: new JsonLogger(
			(l) => lines.push(l),
			undefined,
			{},
			{ level: 'debug', phoneNumbers: 'masked' },
		),
		...overrides,
	});
}

/** Writes `text` on a connection of its own; what came back once the server closed it (or `ms` passed). */
function exchange(
	port: number,
	text: string,
	ms = 2000,
): Promise<{ text: string; closed: boolean }> {
	return new Promise((resolve) => {
		let out = '';
		const socket = connect(port, '127.0.0.1', () => socket.write(text));
		const timer = setTimeout(() => {
			socket.destroy();
			resolve({ text: out, closed: false });
		}, ms);
		socket.on('data', (d) => (out += d));
		socket.on('error', () => undefined);
		socket.on('close', () => {
			clearTimeout(timer);
			resolve({ text: out, closed: true });
		});
	});
}

describe('the webhook server keeps its limits', () => {
	it('answers a body over maxBodyBytes 413, declared or streamed, before it is all read, and closes the connection', async () => {
		const lines: string[] = [];
		const s = server(lines);
		const port = await s.listen();
		try {
			const declared = await fetch(`http://127.0.0.1:${port}/callbacks/${SECRET}/replies`, {
				method: 'POST',
				body: 'x'.repeat(1_000_000),
			});
			expect(declared.status).toBe(413);
			expect(declared.headers.get('connection')).toBe('close');
			expect(await declared.json()).toEqual({ error: 'the body is larger than 2048 bytes' });
			const chunks = new ReadableStream({
				start(c) {
					for (let i = 0; i < 100; i++) c.enqueue(new TextEncoder().encode('x'.repeat(10_000)));
					c.close();
				},
			});
			const streamed = await fetch(`http://127.0.0.1:${port}/callbacks/${SECRET}/replies`, {
				method: 'POST',
				body: chunks,
				duplex: 'half',
			} as RequestInit);
			expect(streamed.status).toBe(413);
			// A body with the wrong secret is not read at all: the secret is checked first.
			expect(
				(
					await fetch(`http://127.0.0.1:${port}/callbacks/not-the-secret/replies`, {
						method: 'POST',
						body: 'x'.repeat(1_000_000),
					})
				).status,
			).toBe(401);
		} finally {
			await s.close();
		}
		const refused = lines
			.map((l) => JSON.parse(l))
			.filter((l) => l.reason === 'callback body too large');
		expect(refused.map((l) => l.count)).toEqual([1, 1]);
		expect(refused[0]).toMatchObject({ status: 413, route: 'replies', limit: 2048 });
	});

	it('answers a request on a connection beyond maxConnections 503 and closes it; the others are served', async () => {
		const lines: string[] = [];
		const s = server(lines, { maxConnections: 3 });
		const port = await s.listen();
		const idle = await Promise.all(
			Array.from(
				{ length: 3 },
				() =>
					new Promise<Socket>((resolve) => {
						const c = connect(port, '127.0.0.1', () => resolve(c));
					}),
			),
		);
		try {
			await new Promise((r) => setTimeout(r, 50));
			const over = await exchange(port, 'GET /ready HTTP/1.1\r\nhost: x\r\n\r\n');
			expect(over.text).toMatch(/^HTTP\/1\.1 503 /);
			expect(over.text).toContain('{"error":"too many connections; try again"}');
			expect(over.closed).toBe(true);
		} finally {
			for (const c of idle) c.destroy();
		}
		await new Promise((r) => setTimeout(r, 50));
		const after = await exchange(
			port,
			'GET /ready HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
		);
		expect(after.text).toMatch(/^HTTP\/1\.1 200 /);
		await s.close();
		expect(
			lines.map((l) => JSON.parse(l)).find((l) => l.reason === 'too many connections'),
		).toMatchObject({ status: 503, limit: 3 });
	});

	it('keeps the last quarter of maxConnections for callbacks: a report or API request beyond its share is answered 503, a callback 200', async () => {
		const lines: string[] = [];
		const token = 'report-token-0123456789';
		const s = server(lines, {
			maxConnections: 8,
			maxConnectionsPerClient: 8,
			reports: {
				tokens: { report: token },
				ledger: { campaignNames: async () => [] } as unknown as Ledger,
				dashboard: new Dashboard({
					ledger: { dashboardCampaigns: async () => [], dashboardFigures: async () => new Map() },
				}),
				secureCookies: false,
			},
		});
		const port = await s.listen();
		const idle = await Promise.all(
			Array.from(
				{ length: 6 },
				() =>
					new Promise<Socket>((resolve) => {
						const c = connect(port, '127.0.0.1', () => resolve(c));
					}),
			),
		);
		try {
			await new Promise((r) => setTimeout(r, 50));
			const report = await exchange(
				port,
				`GET /campaigns.json HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\n\r\n`,
			);
			expect(report.text).toMatch(/^HTTP\/1\.1 503 /);
			const api = await exchange(port, 'GET /api/campaigns HTTP/1.1\r\nhost: x\r\n\r\n');
			expect(api.text).toMatch(/^HTTP\/1\.1 503 /);
			expect((await post(port, `/callbacks/${SECRET}/replies`, reply, new Agent())).status).toBe(
				200,
			);
		} finally {
			for (const c of idle) c.destroy();
		}
		await new Promise((r) => setTimeout(r, 50));
		expect(
			(
				await fetch(`http://127.0.0.1:${port}/campaigns.json`, {
					headers: { authorization: `Bearer ${token}` },
				})
			).status,
		).toBe(200);
		await s.close();
		expect(
			lines
				.map((l) => JSON.parse(l))
				.find((l) => l.reason === 'too many connections for the API and reports'),
		).toMatchObject({ status: 503, limit: 8 });
	});

	it('answers a fault of its own 500 and logs it as an error, whether or not a body was read', async () => {
		const lines: string[] = [];
		const s = server(lines, {
			health: async () => {
				throw new Error('health probe broke');
			},
			stored: () => {
				throw new Error('kick broke');
			},
		});
		const port = await s.listen();
		try {
			const health = await fetch(`http://127.0.0.1:${port}/health`);
			expect(health.status).toBe(500);
			expect(await health.json()).toEqual({ error: 'internal error' });
			// Answered before the fault: the 200 stands, the fault is logged.
			expect((await post(port, `/callbacks/${SECRET}/replies`, reply, new Agent())).status).toBe(
				200,
			);
		} finally {
			await s.close();
		}
		const errors = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 'error');
		expect(errors.map((l) => [l.msg, l.error.message])).toEqual([
			['webhook error', 'health probe broke'],
			['webhook error', 'kick broke'],
		]);
	});

	it('never reads a body sent to the reports: the token decides (401), then the method (405)', async () => {
		const lines: string[] = [];
		const token = 'report-token-0123456789';
		const s = server(lines, {
			reports: {
				tokens: { report: token },
				ledger: { campaignNames: async () => [] } as unknown as Ledger,
				dashboard: new Dashboard({
					ledger: { dashboardCampaigns: async () => [], dashboardFigures: async () => new Map() },
				}),
				secureCookies: false,
			},
		});
		const port = await s.listen();
		try {
			for (const body of ['{"broken": ', 'x'.repeat(1_000_000)]) {
				const anonymous = await fetch(`http://127.0.0.1:${port}/campaigns`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body,
				});
				expect(anonymous.status).toBe(401);
				const withToken = await fetch(`http://127.0.0.1:${port}/campaigns/spring`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
					body,
				});
				expect(withToken.status).toBe(405);
				expect(withToken.headers.get('content-security-policy')).toContain("default-src 'none'");
			}
			expect(
				(
					await fetch(`http://127.0.0.1:${port}/campaigns.json`, {
						headers: { authorization: `Bearer ${token}` },
					})
				).status,
			).toBe(200);
		} finally {
			await s.close();
		}
	});

	it('keeps a connection alive across callbacks; a client gone mid-body is debug, not an error; a path it cannot decode is refused like any other', async () => {
		const lines: string[] = [];
		const s = server(lines);
		const port = await s.listen();
		try {
			const agent = new Agent({ keepAlive: true, maxSockets: 1 });
			const sockets = new Set<unknown>();
			agent.on('free', (socket) => sockets.add(socket));
			expect(await post(port, `/callbacks/${SECRET}/replies`, reply, agent)).toEqual({
				status: 200,
				body: { ok: true },
			});
			expect(
				await post(
					port,
					`/hooks/worker/callbacks/${SECRET}/replies`,
					{ ...reply, MessageSid: 'm-2' },
					agent,
				),
			).toEqual({ status: 200, body: { ok: true } });
			expect(sockets.size).toBe(1);
			agent.destroy();
			const gone = await exchange(
				port,
				`POST /callbacks/${SECRET}/replies HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"MessageSid": "`,
				100,
			);
			expect(gone.text).toBe('');
			expect(
				(
					await fetch(`http://127.0.0.1:${port}/callbacks/%zz/receipts`, {
						method: 'POST',
						body: '{}',
					})
				).status,
			).toBe(401);
			expect((await fetch(`http://127.0.0.1:${port}/%zz`)).status).toBe(404);
		} finally {
			await s.close();
		}
		const logged = lines.map((l) => JSON.parse(l));
		expect(logged.filter((l) => l.level === 'error')).toEqual([]);
		expect(
			logged.some((l) => l.level === 'debug' && l.msg === 'client went away mid-request'),
		).toBe(true);
	});
});
