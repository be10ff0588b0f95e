import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/**
 * A campaign's `events` URL is the API caller's: the worker POSTs to it, so it may not be
 * made to reach this machine or its networks (SSRF) unless config outbound.allow lists the host.
 */
describe.each(sqlite)("an API caller's events URL ($name)", (backend) => {
	it('is refused 400, naming events, when it points inside, however the address is spelled, or carries credentials; outbound.allow lets a host in', async () => {
		const api = await ApiUnderTest.startWithSandbox(backend, cleanup, {
			outboundAllow: ['127.0.0.1:4620', 'n8n.localhost'],
		});
		const settings = { property: api.sandbox.demo.PropertySid, text: 'Hi {{first_name}}' };
		const inner: [string, RegExp][] = [
			['http://169.254.169.254/latest/meta-data/', /link-local address \(169\.254\.169\.254\)/],
			['http://[::1]:22/', /loopback address \(::1\)/],
			['http://0x7f000001:4621/internal-admin', /loopback address \(127\.0\.0\.1\)/],
			['http://2130706433:4621/', /loopback address \(127\.0\.0\.1\)/],
			['http://[::ffff:127.0.0.1]:4621/', /loopback address \(::ffff:7f00:1\)/],
			['http://127.1:4621/', /loopback address \(127\.0\.0\.1\)/],
			['http://10.0.0.1/', /private address/],
			['http://172.16.5.4/', /private address/],
			['http://192.168.1.1/', /private address/],
			['http://[fd00::1]/', /private address/],
			['http://[fe80::1]/', /link-local address/],
			['http://0.0.0.0:4620/', /unspecified address/],
			['http://localhost:4620/', /loopback address \(localhost is (127\.0\.0\.1|::1)\)/],
			['https://user:pass@10.0.0.1/', /must not carry a user name or password/],
			['https://user:pass@93.184.215.14/', /must not carry a user name or password/],
		];
		for (const [i, [url, why]] of inner.entries()) {
			const answer = await api.call('PUT', `/api/campaigns/c${i}`, { ...settings, events: url });
			expect(answer.status, url).toBe(400);
			expect(answer.body.error.code, url).toBe('invalid');
			expect(answer.body.error.problems, url).toEqual([
				{ field: 'events', message: expect.stringMatching(why) },
			]);
		}
		// Only the host and port listed; a public address needs no listing.
		expect(
			(
				await api.call('PUT', '/api/campaigns/allowed', {
					...settings,
					events: 'http://127.0.0.1:4620/hook',
				})
			).status,
		).toBe(201);
		expect(
			(
				await api.call('PUT', '/api/campaigns/public', {
					...settings,
					events: 'https://93.184.215.14/hook',
				})
			).status,
		).toBe(201);
		expect(
			(await api.call('GET', '/api/campaigns')).body.campaigns.map((c: { name: string }) => c.name),
		).toEqual(['allowed', 'public']);
	});
});
