import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
beforeAll(async () => {
	sb = await SandboxClient.start();
});
afterAll(() => sb.close());

describe('authentication and account isolation', () => {
	it.each([
		['no header', null],
		['not Basic', 'Bearer abc'],
		['broken base64', 'Basic !!!'],
		['no colon', `Basic ${Buffer.from('justuser').toString('base64')}`],
		[
			'unknown account',
			`Basic ${Buffer.from('00000000-0000-4000-8000-000000000000:x').toString('base64')}`,
		],
	])('answers 401 with a ResponseStatus for %s', async (_name, auth) => {
		const r = await sb.call('GET', '/v2/OnlineLogins', undefined, { auth });
		expect(r.status).toBe(401);
		expect(r.body.ResponseStatus.ErrorCode).toBe('UNAUTHORIZED');
		expect(r.headers.get('www-authenticate')).toMatch(/^Basic/);
	});

	it('refuses the right account with the wrong token', async () => {
		const r = await sb.call('GET', '/v2/OnlineLogins', undefined, {
			auth: sb.authFor(sb.demo.AccountSid, 'wrong'),
		});
		expect(r.status).toBe(401);
	});

	it("treats another account's Sids as not found", async () => {
		const other = await sb.newAccount();
		const login = await sb.call(
			'POST',
			`/v2/Properties/${other.PropertySid}/OnlineLogins`,
			{
				Email: 'iso@example.com',
				Password: 'Secret-Pass1!',
				FirstName: 'I',
				LastName: 'So',
				Scopes: 'Manage',
			},
			{ auth: other.auth },
		);
		expect(login.status).toBe(200);
		const sid = login.body.OnlineLogin.OnlineLoginSid;
		expect((await sb.call('GET', `/v2/OnlineLogins/${sid}`)).status).toBe(404);
		expect((await sb.call('PATCH', `/v2/OnlineLogins/${sid}`, { Enabled: true })).status).toBe(404);
		expect(
			(await sb.call('PATCH', `/v2/Properties/${other.PropertySid}`, { Name: 'x' })).status,
		).toBe(404);
		expect(
			(
				await sb.call('POST', `/v2/Properties/${other.PropertySid}/Messages`, {
					To: '+61412345678',
					Text: 'x',
				})
			).status,
		).toBe(404);
		expect(
			(
				await sb.call('POST', `/v2/Accounts/${other.AccountSid}/Addresses`, {
					Line1: 'a',
					City: 'b',
					CountryCode: 'AU',
				})
			).status,
		).toBe(404);
		const list = await sb.call('GET', '/v2/OnlineLogins');
		expect(list.body.OnlineLogins.map((l: any) => l.OnlineLoginSid)).not.toContain(sid);
	});

	it('answers 404 for a Sid that is not a UUID', async () => {
		const r = await sb.call('GET', '/v2/OnlineLogins/not-a-sid');
		expect(r.status).toBe(404);
		expect(r.body.ResponseStatus.ErrorCode).toBe('NOT_FOUND');
	});
});
