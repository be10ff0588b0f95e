import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requests } from '../../../api';
import { apiRequest } from '../../../nodes/CloudTel/transport';
import { MAX_RATE_LIMIT_RETRIES, retryDelayMs } from '../../../nodes/CloudTel/transport/retryDelay';
import { executeContext } from './fakeN8n';

describe('transport', () => {
	it('reads Retry-After as seconds or a date, else backs off exponentially, capped', () => {
		expect(retryDelayMs('2', 0)).toBe(2000);
		expect(retryDelayMs(['0.5'], 3)).toBe(500);
		expect(retryDelayMs(new Date(10_000).toUTCString(), 0, 7_000)).toBe(3000);
		expect(retryDelayMs(undefined, 0)).toBe(1000);
		expect(retryDelayMs('soon', 3)).toBe(8000);
		expect(retryDelayMs('86400', 0)).toBe(60_000);
	});

	it('gives up on 429 after a bounded number of retries, with the provider error', async () => {
		let hits = 0;
		const server = createServer((_req, res) => {
			hits++;
			res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
			res.end(
				JSON.stringify({ ResponseStatus: { ErrorCode: 'RATE_LIMITED', Message: 'Slow down.' } }),
			);
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
		try {
			const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			const ctx = executeContext({
				credentials: { baseUrl, accountSid: 'a', authToken: 'b' },
				params: {},
			});
			await expect(apiRequest.call(ctx, requests.listOnlineLogins(), 4)).rejects.toMatchObject({
				name: 'NodeApiError',
				httpCode: '429',
				message: 'RATE_LIMITED: Slow down.',
				context: { itemIndex: 4, ErrorCode: 'RATE_LIMITED' },
			});
			expect(hits).toBe(MAX_RATE_LIMIT_RETRIES + 1);
		} finally {
			await new Promise<void>((r) => server.close(() => r()));
		}
	});

	it('reports a provider that cannot be reached', async () => {
		const ctx = executeContext({
			credentials: { baseUrl: 'http://127.0.0.1:1', accountSid: 'a', authToken: 'b' },
			params: {},
		});
		await expect(apiRequest.call(ctx, requests.listOnlineLogins())).rejects.toMatchObject({
			name: 'NodeApiError',
			message: expect.stringMatching(/Could not reach CloudTel/),
			description: expect.stringContaining(
				'Check the Base URL of the CloudTel API credential (now "http://127.0.0.1:1")',
			),
		});
	});
});
