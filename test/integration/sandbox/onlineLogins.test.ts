import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
beforeAll(async () => {
	sb = await SandboxClient.start();
});
afterAll(() => sb.close());

let n = 0;
function login(overrides: Record<string, unknown> = {}) {
	n++;
	return {
		Email: `user${n}@example.com`,
		Password: 'Str0ng-Passw0rd!',
		FirstName: 'Ada',
		LastName: 'Lovelace',
		Scopes: 'Manage,ReportingSms',
		...overrides,
	};
}
const create = (body: unknown) =>
	sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/OnlineLogins`, body);

describe('create online login', () => {
	it('creates a disabled login by default, with a permission on the property', async () => {
		const r = await create(login());
		expect(r.status).toBe(200);
		const l = r.body.OnlineLogin;
		expect(l.OnlineLoginSid).toMatch(/^[0-9a-f-]{36}$/);
		expect(l.Enabled).toBe(false);
		expect(l.Permissions).toEqual([
			{ PropertySid: sb.demo.PropertySid, Scopes: 'Manage,ReportingSms' },
		]);
		expect(l).not.toHaveProperty('Password');
		expect(typeof l.Created).toBe('number');
	});

	it('honours Enabled true', async () => {
		expect((await create(login({ Enabled: true }))).body.OnlineLogin.Enabled).toBe(true);
	});

	it('lists every missing or bad field at once', async () => {
		const r = await create({
			Email: 'nope',
			Password: 'short',
			Scopes: 'Manage,Wizard',
			Enabled: 'yes',
		});
		expect(r.status).toBe(400);
		const fields = r.body.ResponseStatus.Errors.map(
			(e: any) => `${e.FieldName}:${e.ErrorCode}`,
		).sort();
		expect(fields).toEqual(
			[
				'Email:INVALID_EMAIL',
				'Enabled:INVALID_TYPE',
				'FirstName:FIELD_REQUIRED',
				'LastName:FIELD_REQUIRED',
				'Password:INVALID_PASSWORD',
				'Scopes:INVALID_SCOPE',
			].sort(),
		);
	});

	it('refuses an e-mail already used in the account, whatever its case', async () => {
		await create(login({ Email: 'Dup@Example.com' }));
		const r = await create(login({ Email: 'dup@example.COM' }));
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors[0]).toMatchObject({
			FieldName: 'Email',
			ErrorCode: 'DUPLICATE_EMAIL',
		});
	});

	it('refuses a password of 11 characters and accepts one of 12', async () => {
		expect((await create(login({ Password: 'Abcdefgh1!x' }))).status).toBe(400);
		expect((await create(login({ Password: 'Abcdefgh1!xy' }))).status).toBe(200);
	});

	it('answers 404 for an unknown property', async () => {
		const r = await sb.call(
			'POST',
			'/v2/Properties/00000000-0000-4000-8000-000000000000/OnlineLogins',
			login(),
		);
		expect(r.status).toBe(404);
	});
});

describe('list and get online logins', () => {
	let sb2: SandboxClient;
	beforeAll(async () => {
		sb2 = await SandboxClient.start();
		for (let i = 0; i < 7; i++) {
			await sb2.call(
				'POST',
				`/v2/Properties/${sb2.demo.PropertySid}/OnlineLogins`,
				login({ Email: `page${i}@example.com` }),
			);
		}
	});
	afterAll(() => sb2.close());

	it('pages oldest first with Results_Count and Results_Skip', async () => {
		const r = await sb2.call('GET', '/v2/OnlineLogins?Results_Count=3&Results_Skip=2');
		expect(r.status).toBe(200);
		expect(r.body.TotalCount).toBe(7);
		expect(r.body.OnlineLogins.map((l: any) => l.Email)).toEqual([
			'page2@example.com',
			'page3@example.com',
			'page4@example.com',
		]);
		expect(r.body.NextPageToken).not.toBe('');
	});

	it('follows NextPageToken to the end, where it is empty', async () => {
		const seen: string[] = [];
		let token = '';
		do {
			const r = await sb2.call(
				'GET',
				`/v2/OnlineLogins?Results_Count=3${token ? `&PageToken=${encodeURIComponent(token)}&Results_Skip=6` : ''}`,
			);
			seen.push(...r.body.OnlineLogins.map((l: any) => l.Email));
			token = r.body.NextPageToken;
		} while (token);
		expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `page${i}@example.com`));
	});

	it('defaults to 50 per page', async () => {
		const r = await sb2.call('GET', '/v2/OnlineLogins');
		expect(r.body.OnlineLogins).toHaveLength(7);
		expect(r.body.NextPageToken).toBe('');
	});

	it.each([
		['Results_Count=0', 'Results_Count'],
		['Results_Count=1001', 'Results_Count'],
		['Results_Count=abc', 'Results_Count'],
		['Results_Skip=-1', 'Results_Skip'],
		['PageToken=forged', 'PageToken'],
	])('refuses %s', async (query, field) => {
		const r = await sb2.call('GET', `/v2/OnlineLogins?${query}`);
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors[0].FieldName).toBe(field);
	});

	it('accepts Results_Count 1 and 1000', async () => {
		expect(
			(await sb2.call('GET', '/v2/OnlineLogins?Results_Count=1')).body.OnlineLogins,
		).toHaveLength(1);
		expect((await sb2.call('GET', '/v2/OnlineLogins?Results_Count=1000')).status).toBe(200);
	});

	it('gets one login wrapped as create returns it', async () => {
		const first = (await sb2.call('GET', '/v2/OnlineLogins?Results_Count=1')).body.OnlineLogins[0];
		const r = await sb2.call('GET', `/v2/OnlineLogins/${first.OnlineLoginSid}`);
		expect(r.body).toEqual({ OnlineLogin: first });
	});
});

describe('update online login (merge patch)', () => {
	async function fresh() {
		return (await create(login())).body.OnlineLogin;
	}
	const get = async (sid: string) =>
		(await sb.call('GET', `/v2/OnlineLogins/${sid}`)).body.OnlineLogin;

	it('changes only the fields supplied and answers 204 with no body', async () => {
		const l = await fresh();
		const r = await sb.call('PATCH', `/v2/OnlineLogins/${l.OnlineLoginSid}`, {
			FirstName: 'Grace',
			Enabled: true,
		});
		expect(r.status).toBe(204);
		expect(r.text).toBe('');
		expect(await get(l.OnlineLoginSid)).toEqual({ ...l, FirstName: 'Grace', Enabled: true });
	});

	it('replaces the whole permission set', async () => {
		const l = await fresh();
		const perms = [
			{ AccountSid: sb.demo.AccountSid, Scopes: 'Admin' },
			{ PropertySid: sb.demo.PropertySid, Scopes: 'Billing, Reporting' },
		];
		expect(
			(await sb.call('PATCH', `/v2/OnlineLogins/${l.OnlineLoginSid}`, { Permissions: perms }))
				.status,
		).toBe(204);
		expect((await get(l.OnlineLoginSid)).Permissions).toEqual(perms);
	});

	it('refuses a permission with both Sids, neither, or Sids of another account', async () => {
		const l = await fresh();
		const other = await sb.newAccount();
		const bad = [
			{ AccountSid: sb.demo.AccountSid, PropertySid: sb.demo.PropertySid, Scopes: 'Admin' },
			{ Scopes: 'Admin' },
		];
		const r = await sb.call('PATCH', `/v2/OnlineLogins/${l.OnlineLoginSid}`, { Permissions: bad });
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors.map((e: any) => e.FieldName)).toEqual([
			'Permissions[0]',
			'Permissions[1]',
		]);
		const foreign = await sb.call('PATCH', `/v2/OnlineLogins/${l.OnlineLoginSid}`, {
			Permissions: [
				{ AccountSid: other.AccountSid, Scopes: 'Admin' },
				{ PropertySid: other.PropertySid, Scopes: 'Admin' },
			],
		});
		expect(foreign.status).toBe(400);
		expect(foreign.body.ResponseStatus.Errors.map((e: any) => e.FieldName)).toEqual([
			'Permissions[0].AccountSid',
			'Permissions[1].PropertySid',
		]);
		expect((await get(l.OnlineLoginSid)).Permissions).toEqual(l.Permissions);
	});

	it('refuses null and unknown fields and changes nothing', async () => {
		const l = await fresh();
		const r = await sb.call('PATCH', `/v2/OnlineLogins/${l.OnlineLoginSid}`, {
			FirstName: null,
			Nickname: 'x',
			LastName: 'Kept?',
		});
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors.map((e: any) => `${e.FieldName}:${e.ErrorCode}`)).toEqual([
			'FirstName:NULL_NOT_ALLOWED',
			'Nickname:UNKNOWN_FIELD',
		]);
		expect(await get(l.OnlineLoginSid)).toEqual(l);
	});

	it('needs the merge-patch content type', async () => {
		const l = await fresh();
		const r = await sb.call(
			'PATCH',
			`/v2/OnlineLogins/${l.OnlineLoginSid}`,
			{ Enabled: true },
			{ contentType: 'application/json' },
		);
		expect(r.status).toBe(400);
		expect((await get(l.OnlineLoginSid)).Enabled).toBe(false);
	});

	it('applies password rules and e-mail uniqueness on update', async () => {
		const a = await fresh();
		const b = await fresh();
		const weak = await sb.call('PATCH', `/v2/OnlineLogins/${a.OnlineLoginSid}`, {
			Password: 'alllowercase12',
		});
		expect(weak.status).toBe(400);
		expect(weak.body.ResponseStatus.Errors[0].Message).toMatch(/upper-case/);
		const dup = await sb.call('PATCH', `/v2/OnlineLogins/${a.OnlineLoginSid}`, {
			Email: b.Email.toUpperCase(),
		});
		expect(dup.body.ResponseStatus.ErrorCode).toBe('DUPLICATE_EMAIL');
		expect(
			(
				await sb.call('PATCH', `/v2/OnlineLogins/${a.OnlineLoginSid}`, {
					Email: a.Email.toUpperCase(),
				})
			).status,
		).toBe(204);
	});

	it('treats an empty patch as a no-op', async () => {
		const l = await fresh();
		expect((await sb.call('PATCH', `/v2/OnlineLogins/${l.OnlineLoginSid}`, {})).status).toBe(204);
		expect(await get(l.OnlineLoginSid)).toEqual(l);
	});
});
