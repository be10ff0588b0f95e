import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoutes } from '../../../worker/src/daemon/http/apiRoutes';
import { WebhookServer } from '../../../worker/src/daemon/http/webhookServer';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';

const TOKEN = 'api-token-0123456789abcdef';
const lines: string[] = [];

/** A route plugin as the campaign API's are: its own body limit and content types, in its own context. */
const pages: ApiRoutes = async (api: FastifyInstance) => {
	api.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
	api.put('/campaigns/:name/pages/:page', { bodyLimit: 1024 * 1024 }, async (request) => ({ params: request.params, recipients: (request.body as { recipients: unknown[] }).recipients.length }));
	api.put('/campaigns/:name/csv', async (request) => ({ rows: (request.body as string).trim().split('\n').length - 1 }));
};

function start(token: string | undefined): Promise<{ server: WebhookServer; base: string }> {
	const server = new WebhookServer({
		host: '127.0.0.1',
		port: 0,
		secrets: ['callback-secret-0123456'],
		accountSid: 'a',
		maxBodyBytes: 4096,
		maxConnections: 1024,
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
const put = (base: string, path: string, body: string, headers: Record<string, string> = auth) => fetch(`${base}/api${path}`, { method: 'PUT', headers, body });

describe('the campaign API mount (/api)', () => {
	it('without server.apiToken, every /api path is 404, with the token or not', async () => {
		for (const path of ['/api', '/api/', '/api/campaigns/a/pages/1', '/api/openapi.json']) {
			const res = await fetch(`${off.base}${path}`, { headers: auth });
			expect(res.status).toBe(404);
			expect((await res.json()) as unknown).toMatchObject({ error: { code: 'not_found' } });
		}
	});

	it('with one: no token, another scheme or a wrong token is 401 with WWW-Authenticate: Bearer, on every path, before any body is read', async () => {
		for (const headers of [{}, { authorization: `Basic ${TOKEN}` }, { authorization: 'Bearer not-the-token-at-all' }, { authorization: `Bearer ${TOKEN}x` }]) {
			for (const path of ['/campaigns/a/pages/1', '/no-such-route']) {
				const res = await put(on.base, path, JSON.stringify({ recipients: [], padding: 'x'.repeat(2_000_000) }), { ...headers, 'content-type': 'application/json' });
				expect(res.status).toBe(401);
				expect(res.headers.get('www-authenticate')).toBe('Bearer');
				expect((await res.json()) as unknown).toMatchObject({ error: { code: 'unauthorized' } });
			}
		}
		expect(lines.join('')).not.toContain(TOKEN);
		expect(lines.map((l) => JSON.parse(l)).find((l) => l.reason === 'wrong or missing API token')).toMatchObject({ msg: 'request refused', status: 401 });
	});

	it("with the token, the plugin's routes answer with their own body limits and content types; a path no route has is 404 not_found", async () => {
		// 40,000 bytes: ten times the callbacks' maxBodyBytes, within the route's own limit.
		const recipients = Array.from({ length: 1000 }, (_, i) => ({ phone: `+614123${String(i).padStart(5, '0')}`, first_name: 'Ann' }));
		const res = await put(on.base, '/campaigns/spring/pages/2', JSON.stringify({ recipients }));
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ params: { name: 'spring', page: '2' }, recipients: 1000 });
		const csv = await put(on.base, '/campaigns/spring/csv', 'phone\n+61412345678\n+61412345679\n', { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' });
		expect(await csv.json()).toEqual({ rows: 2 });
		for (const [method, path] of [['GET', '/api/nothing/here'], ['DELETE', '/api/campaigns/spring/pages/2'], ['GET', '/api']]) {
			const none = await fetch(`${on.base}${path}`, { method, headers: auth });
			expect(none.status).toBe(404);
			expect((await none.json()) as unknown).toMatchObject({ error: { code: 'not_found' } });
		}
	});

	it('leaves the callbacks, /health and their limits as they were', async () => {
		expect((await fetch(`${on.base}/health`)).status).toBe(200);
		expect((await fetch(`${on.base}/callbacks/wrong-secret-000000/receipts`, { method: 'POST', body: '{}' })).status).toBe(401);
		expect((await fetch(`${on.base}/callbacks/callback-secret-0123456/receipts`, { method: 'POST', body: 'x'.repeat(5000) })).status).toBe(413);
		expect((await fetch(`${on.base}/apix`)).status).toBe(404);
	});
});
