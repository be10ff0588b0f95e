import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
beforeAll(async () => {
	sb = await SandboxClient.start();
});
afterAll(() => sb.close());

describe('consistency under concurrent requests', () => {
	it('creates exactly one login when 40 requests race for the same e-mail', async () => {
		const results = await Promise.all(
			Array.from({ length: 40 }, () =>
				sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/OnlineLogins`, {
					Email: 'race@example.com',
					Password: 'Str0ng-Passw0rd!',
					FirstName: 'R',
					LastName: 'C',
					Scopes: 'Manage',
				}),
			),
		);
		expect(results.filter((r) => r.status === 200)).toHaveLength(1);
		expect(
			results
				.filter((r) => r.status === 400)
				.every((r) => r.body.ResponseStatus.ErrorCode === 'DUPLICATE_EMAIL'),
		).toBe(true);
	});

	it('stores every message of 20 concurrent batches once, each with its own Sid', async () => {
		await Promise.all(
			Array.from({ length: 20 }, (_, b) =>
				sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/BatchMessages`, {
					Messages: Array.from({ length: 100 }, (_, i) => ({
						To: '+61412345678',
						Text: 'x',
						ExternalId: `${b}:${i}`,
					})),
				}),
			),
		);
		const messages = (await sb.messages()).filter((m) => /^\d+:\d+$/.test(m.ExternalId));
		expect(messages).toHaveLength(2000);
		expect(new Set(messages.map((m) => m.ExternalId)).size).toBe(2000);
		expect(new Set(messages.map((m) => m.MessageSid)).size).toBe(2000);
	});
});
