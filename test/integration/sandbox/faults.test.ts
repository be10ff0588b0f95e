import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient | undefined;
afterEach(async () => {
	await sb?.close();
	sb = undefined;
});

const send = (c: SandboxClient) =>
	c.call('POST', `/v2/Properties/${c.demo.PropertySid}/Messages`, {
		To: '+61412345678',
		Text: 'x',
	});
const batchOf = (c: SandboxClient, n: number) =>
	c.call('POST', `/v2/Properties/${c.demo.PropertySid}/BatchMessages`, {
		Messages: Array.from({ length: n }, () => ({ To: '+61412345678', Text: 'x' })),
	});

describe('fault injection', () => {
	it('delays every /v2 answer by --latency-ms', async () => {
		sb = await SandboxClient.start({ latencyMs: 1_000 });
		const t = performance.now();
		let v2Answered = false;
		const v2 = sb.call('GET', '/v2/OnlineLogins').then((r) => ((v2Answered = true), r));
		// The control API is not delayed: its answer comes while the /v2 call still waits.
		expect((await sb.call('GET', '/_sandbox/health', undefined, { auth: null })).status).toBe(200);
		expect(v2Answered).toBe(false);
		expect((await v2).status).toBe(200);
		expect(performance.now() - t).toBeGreaterThanOrEqual(995);
	});

	it('answers 500 to the --fail-rate share, before anything is stored', async () => {
		sb = await SandboxClient.start({ failRate: 1 });
		const r = await send(sb);
		expect(r.status).toBe(500);
		expect(r.body.ResponseStatus.ErrorCode).toBe('INTERNAL_ERROR');
		expect(await sb.messages()).toHaveLength(0);
	});

	it('fails about the share asked for', async () => {
		sb = await SandboxClient.start({ failRate: 0.3 });
		const statuses = await Promise.all(
			Array.from({ length: 200 }, () => sb!.call('GET', '/v2/OnlineLogins').then((r) => r.status)),
		);
		const failed = statuses.filter((s) => s === 500).length;
		expect(failed).toBeGreaterThan(25);
		expect(failed).toBeLessThan(100);
		expect(statuses.every((s) => s === 500 || s === 200)).toBe(true);
	});
});

describe('rate limit', () => {
	it('refuses messages above the per-account rate with 429 and Retry-After, storing none of them', async () => {
		sb = await SandboxClient.start({ rateLimit: 10 });
		expect((await batchOf(sb, 10)).status).toBe(200);
		const r = await send(sb);
		expect(r.status).toBe(429);
		expect(r.body.ResponseStatus.ErrorCode).toBe('RATE_LIMITED');
		expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(await sb.messages()).toHaveLength(10);
		// A second later on the sandbox clock, the bucket has refilled.
		await sb.advance(1);
		expect((await send(sb)).status).toBe(200);
	});

	it('limits each account separately and leaves other operations alone', async () => {
		sb = await SandboxClient.start({ rateLimit: 5 });
		expect((await batchOf(sb, 5)).status).toBe(200);
		expect((await send(sb)).status).toBe(429);
		expect((await sb.call('GET', '/v2/OnlineLogins')).status).toBe(200);
		const other = await sb.newAccount();
		const r = await sb.call(
			'POST',
			`/v2/Properties/${other.PropertySid}/Messages`,
			{ To: '+61412345678', Text: 'x' },
			{ auth: other.auth },
		);
		expect(r.status).toBe(200);
	});

	it('lets a batch larger than one second pass when the bucket is full, then holds the average', async () => {
		sb = await SandboxClient.start({ rateLimit: 20 });
		// Five seconds' worth: the deficit outlasts a busy machine's pause before the next send.
		expect((await batchOf(sb, 100)).status).toBe(200);
		const r = await send(sb);
		expect(r.status).toBe(429);
		expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(2);
	});
});

describe('bad requests are 4xx, never 5xx', () => {
	it('answers 413 for a body over the limit', async () => {
		sb = await SandboxClient.start({ bodyLimit: 1024 });
		const r = await sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/Messages`, {
			To: '+61412345678',
			Text: 'x'.repeat(2000),
		});
		expect(r.status).toBe(413);
		expect(r.body.ResponseStatus.ErrorCode).toBe('PAYLOAD_TOO_LARGE');
	});

	it('answers 404 for unknown routes and 405 for a wrong method, with the methods allowed', async () => {
		sb = await SandboxClient.start();
		const unknown = await sb.call('GET', '/v3/Nothing');
		expect(unknown.status).toBe(404);
		expect(unknown.body.ResponseStatus.ErrorCode).toBe('NOT_FOUND');
		const wrong = await sb.call('DELETE', `/v2/Properties/${sb.demo.PropertySid}/Messages`);
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('POST');
	});

	it('answers 400 to a malformed URL', async () => {
		sb = await SandboxClient.start();
		const r = await sb.call('GET', '/v2/OnlineLogins/%E0%A4%A');
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus).toBeDefined();
	});

	it('answers over-long headers with 431 and a ResponseStatus, not a body of its own shape', async () => {
		sb = await SandboxClient.start();
		const r = await fetch(`${sb.url}/v2/OnlineLogins`, {
			headers: {
				authorization: sb.authFor(sb.demo.AccountSid, sb.demo.AuthToken),
				'x-padding': 'a'.repeat(20_000),
			},
		});
		expect(r.status).toBe(431);
		expect(r.headers.get('content-type')).toMatch(/^application\/json/);
		expect(await r.json()).toEqual({
			ResponseStatus: {
				ErrorCode: 'HEADERS_TOO_LARGE',
				Message: expect.stringMatching(/headers are larger/),
				Errors: [],
			},
		});
		// The sandbox is still there for the next request.
		expect((await send(sb)).status).toBe(200);
	});

	it('answers bytes that are not HTTP with 400 and a ResponseStatus', async () => {
		sb = await SandboxClient.start();
		const { hostname, port } = new URL(sb.url);
		const raw = await new Promise<string>((resolve, reject) => {
			let answer = '';
			const socket = connect({ host: hostname, port: Number(port) }, () =>
				socket.write('HELLO THERE\r\n\r\n'),
			);
			socket.on('data', (d) => (answer += d));
			socket.on('close', () => resolve(answer));
			socket.on('error', reject);
		});
		expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
		expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({
			ResponseStatus: { ErrorCode: 'FormatException' },
		});
	});
});
