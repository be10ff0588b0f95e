import { connect } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerConfigSchema } from '../../../worker/src/config/workerConfigSchema';
import { API_TOKEN } from '../api/apiToken';
import { CampaignRunner } from '../../../worker/src/daemon/campaigns/campaignRunner';
import { CampaignApi } from '../../../worker/src/daemon/api/campaignApi';
import type { ApiRoutes } from '../../../worker/src/daemon/http/apiRoutes';
import { WebhookServer } from '../../../worker/src/daemon/http/webhookServer';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import { dbLocation } from '../../../worker/src/storage/dbLocation';
import { openLedger } from '../../../worker/src/storage/openStores';
import { tempDir } from '../../support/tempDir';

const TOKEN = API_TOKEN;
const lines: string[] = [];

/** A route plugin as the campaign API's are: its own body limit and content types, in its own context. */
const pages: ApiRoutes = async (api: FastifyInstance) => {
	api.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) =>
		done(null, body),
	);
	api.put('/campaigns/:name/pages/:page', { bodyLimit: 1024 * 1024 }, async (request) => ({
		params: request.params,
		recipients: (request.body as { recipients: unknown[] }).recipients.length,
	}));
	api.put('/campaigns/:name/csv', async (request) => ({
		rows: (request.body as string).trim().split('\n').length - 1,
	}));
};

function start(token: string | undefined): Promise<{ server: WebhookServer; base: string }> {
	const server = new WebhookServer({
		host: '127.0.0.1',
		port: 0,
		secrets: ['callback-secret-0123456'],
		accountSid: 'a',
		maxBodyBytes: 4096,
		maxConnections: 1024,
		maxConnectionsPerClient: 64,
		store: async () => true,
		stored: () => {},
		health: async () => ({ canTakeCallbacks: true, degraded: [], details: {} }),
		api: { token, routes: [pages] },
		log: new JsonLogger((l) => lines.push(l)),
	});
	return server.listen().then((port) => ({ server, base: `http://127.0.0.1:${port}` }));
}

let on: { server: WebhookServer; base: string };
let off: { server: WebhookServer; base: string };

beforeAll(async () => {
	on = await start(TOKEN);
	off = await start(undefined);
});
afterAll(async () => {
	await on?.server.close();
	await off?.server.close();
});

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const put = (base: string, path: string, body: string, headers: Record<string, string> = auth) =>
	fetch(`${base}/api${path}`, { method: 'PUT', headers, body });

describe('the campaign API mount (/api)', () => {
	it('without server.apiToken, every /api path is 404, with the token or not', async () => {
		for (const path of ['/api', '/api/', '/api/campaigns/a/pages/1', '/api/openapi.json']) {
			const res = await fetch(`${off.base}${path}`, { headers: auth });
			expect(res.status).toBe(404);
			expect((await res.json()) as unknown).toMatchObject({ error: { code: 'not_found' } });
		}
	});

	it('with one: no token, another scheme or a wrong token is 401 with WWW-Authenticate: Bearer, on every path, before any body is read', async () => {
		for (const headers of [
			{} as Record<string, string>,
			{ authorization: `Basic ${TOKEN}` },
			{ authorization: 'Bearer not-the-token-at-all' },
			{ authorization: `Bearer ${TOKEN}x` },
		]) {
			for (const path of ['/campaigns/a/pages/1', '/no-such-route']) {
				const res = await put(
					on.base,
					path,
					JSON.stringify({ recipients: [], padding: 'x'.repeat(2_000_000) }),
					{ ...headers, 'content-type': 'application/json' },
				);
				expect(res.status).toBe(401);
				expect(res.headers.get('www-authenticate')).toBe('Bearer');
				expect((await res.json()) as unknown).toMatchObject({ error: { code: 'unauthorized' } });
			}
		}
		expect(lines.join('')).not.toContain(TOKEN);
		expect(
			lines.map((l) => JSON.parse(l)).find((l) => l.reason === 'wrong or missing API token'),
		).toMatchObject({ msg: 'request refused', status: 401 });
	});

	it("with the token, the plugin's routes answer with their own body limits and content types; a path no route has is 404 not_found", async () => {
		// 40,000 bytes: ten times the callbacks' maxBodyBytes, within the route's own limit.
		const recipients = Array.from({ length: 1000 }, (_, i) => ({
			phone: `+614123${String(i).padStart(5, '0')}`,
			first_name: 'Ann',
		}));
		const res = await put(on.base, '/campaigns/spring/pages/2', JSON.stringify({ recipients }));
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ params: { name: 'spring', page: '2' }, recipients: 1000 });
		const csv = await put(on.base, '/campaigns/spring/csv', 'phone\n+61412345678\n+61412345679\n', {
			authorization: `Bearer ${TOKEN}`,
			'content-type': 'text/csv',
		});
		expect(await csv.json()).toEqual({ rows: 2 });
		for (const [method, path] of [
			['GET', '/api/nothing/here'],
			['DELETE', '/api/campaigns/spring/pages/2'],
			['GET', '/api'],
		]) {
			const none = await fetch(`${on.base}${path}`, { method, headers: auth });
			expect(none.status).toBe(404);
			expect((await none.json()) as unknown).toMatchObject({ error: { code: 'not_found' } });
		}
	});

	it('leaves the callbacks, /health and their limits as they were', async () => {
		expect((await fetch(`${on.base}/health`)).status).toBe(200);
		expect(
			(
				await fetch(`${on.base}/callbacks/wrong-secret-000000/receipts`, {
					method: 'POST',
					body: '{}',
				})
			).status,
		).toBe(401);
		expect(
			(
				await fetch(`${on.base}/callbacks/callback-secret-0123456/receipts`, {
					method: 'POST',
					body: 'x'.repeat(5000),
				})
			).status,
		).toBe(413);
		expect((await fetch(`${on.base}/apix`)).status).toBe(404);
	});
});

describe("the campaign API's own routes through the mount", () => {
	it('take settings and pages behind the token; an upload cut off midway is debug, never an error', async () => {
		const dir = tempDir('cloudtel-mount-');
		const config = workerConfigSchema.parse({
			provider: { baseUrl: 'http://127.0.0.1:9', accountSid: 'A', authToken: 't' },
			db: join(dir, 'w.db'),
			server: {
				publicUrl: 'http://127.0.0.1:9',
				secret: 'callback-secret-0123456789',
				apiToken: TOKEN,
			},
		});
		const location = dbLocation(config.db, 'db');
		const ledger = await openLedger(location);
		const logged: string[] = [];
		const log = new JsonLogger(
			(l) => logged.push(l),
			undefined,
			{},
			{ level: 'debug', phoneNumbers: 'masked' },
		);
		const api = await CampaignApi.open(new CampaignRunner({ config }), location, ledger, log);
		const server = new WebhookServer({
			host: '127.0.0.1',
			port: 0,
			secrets: ['callback-secret-0123456789'],
			accountSid: 'A',
			maxBodyBytes: 4096,
			maxConnections: 100,
			maxConnectionsPerClient: 64,
			store: async () => true,
			stored: () => {},
			health: async () => ({ canTakeCallbacks: true, degraded: [], details: {} }),
			api: { token: TOKEN, routes: [api.routes] },
			log,
		});
		const port = await server.listen();
		const base = `http://127.0.0.1:${port}`;
		try {
			expect((await fetch(`${base}/api/campaigns`)).status).toBe(401);
			for (const name of ['spring', 'autumn'])
				expect(
					(
						await put(
							base,
							`/campaigns/${name}`,
							JSON.stringify({
								property: '11111111-1111-4111-8111-111111111111',
								text: 'Hi {{first_name}}',
							}),
						)
					).status,
				).toBe(201);
			// A page far over the callbacks' maxBodyBytes: the API's own limit holds.
			const recipients = Array.from({ length: 2000 }, (_, i) => ({
				phone: `+614915${String(i).padStart(5, '0')}`,
				first_name: 'Ann',
			}));
			expect(
				await (await put(base, '/campaigns/spring/pages/1', JSON.stringify({ recipients }))).json(),
			).toMatchObject({ page: 1, recipients: 2000 });
			for (const [path, type] of [
				['/api/campaigns/autumn/csv', 'text/csv'],
				['/api/campaigns/spring/pages/2', 'application/json'],
			]) {
				await new Promise<void>((resolve) => {
					const socket = connect(port, '127.0.0.1', () => {
						socket.write(
							`PUT ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TOKEN}\r\ncontent-type: ${type}\r\ncontent-length: 100000\r\n\r\nphone\n+614`,
						);
						setTimeout(() => socket.destroy(), 100);
					});
					socket.on('close', () => resolve());
					socket.on('error', () => undefined);
				});
			}
			// Whatever the cut-off uploads logged has arrived once a later request is answered.
			expect((await fetch(`${base}/api/campaigns`, { headers: auth })).status).toBe(200);
		} finally {
			await server.close();
			await api.close();
			await ledger.close();
		}
		const lines = logged.map((l) => JSON.parse(l) as { level: string; msg: string });
		expect(lines.filter((l) => l.level === 'error')).toEqual([]);
		expect(lines.some((l) => l.level === 'debug' && l.msg === 'client went away mid-request')).toBe(
			true,
		);
	});
});
