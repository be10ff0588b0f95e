import { describe, expect, it } from 'vitest';
import type { IDataObject } from 'n8n-workflow';
import type { RunningSandbox } from '../../../sandbox/src';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { searchOnlineLogins } from '../../../nodes/CloudTel/methods/listSearch';
import { asN8nShows, executeContext, splitErrorOutput, type ExecuteOptions } from './fakeN8n';
import { control, credentialsFor, sandboxForFile } from './sandboxControl';
import { basicAuthorization } from '../../../api';

const node = new CloudTel();
let sb: RunningSandbox;
sandboxForFile((started) => (sb = started));

function run(params: ExecuteOptions['params'], extra: Partial<ExecuteOptions> = {}) {
	const ctx = executeContext({
		credentials: credentialsFor(sb),
		params: { resource: 'onlineLogin', ...params },
		...extra,
	});
	return { ctx, result: node.execute.call(ctx) };
}

const PASSWORD = 'Str0ng!Passw0rd';

async function createLogin(email: string, extra: IDataObject = {}) {
	const { result } = run({
		operation: 'create',
		propertySid: sb.demo.PropertySid,
		email,
		password: PASSWORD,
		firstName: 'Ada',
		lastName: 'Lovelace',
		scopes: ['Manage', 'ReportingSms'],
		...extra,
	});
	return (await result)[0][0].json;
}

describe('Online Login', () => {
	it('creates a login carrying the property permission', async () => {
		const login = await createLogin('create@example.com', { enabled: true });
		expect(login).toMatchObject({
			Email: 'create@example.com',
			Enabled: true,
			FirstName: 'Ada',
			LastName: 'Lovelace',
		});
		// A readable date beside the provider's Unix seconds.
		expect(new Date(String(login.CreatedIso)).getTime()).toBe(Number(login.Created) * 1000);
		expect(String(login.CreatedIso)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
		expect(login.Permissions).toEqual([
			{ PropertySid: sb.demo.PropertySid, Scopes: 'Manage,ReportingSms' },
		]);
	});

	it('gets a login by Sid from a resource locator', async () => {
		const created = await createLogin('get@example.com');
		const { result } = run({
			operation: 'get',
			onlineLoginSid: { __rl: true, mode: 'list', value: created.OnlineLoginSid },
		});
		const out = await result;
		expect(out[0]).toEqual([{ json: created, pairedItem: { item: 0 } }]);
	});

	it('reads one page of Limit logins after Skip', async () => {
		for (let i = 0; i < 5; i++) await createLogin(`page${i}@example.com`);
		const all = (await run({ operation: 'getMany', returnAll: true }).result)[0];
		const { ctx, result } = run({
			operation: 'getMany',
			returnAll: false,
			limit: 3,
			options: { skip: 1 },
		});
		const limited = (await result)[0];
		expect(limited.map((i) => i.json.OnlineLoginSid)).toEqual(
			all.slice(1, 4).map((i) => i.json.OnlineLoginSid),
		);
		expect(ctx.sent.map((r) => new URL(r.url).search)).toEqual(['?Results_Count=3&Results_Skip=1']);
		expect(limited.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('updates only the fields set, and replaces the whole permission set', async () => {
		const created = await createLogin('update@example.com');
		const { ctx, result } = run({
			operation: 'update',
			onlineLoginSid: { __rl: true, mode: 'id', value: created.OnlineLoginSid },
			updateFields: {
				FirstName: 'Augusta',
				Enabled: true,
				Permissions: {
					permission: [
						{ target: 'account', scopes: ['Admin'] },
						{ target: 'property', propertySid: sb.demo.PropertySid, scopes: ['Reporting'] },
					],
				},
			},
		});
		const out = await result;
		expect(ctx.sent[0].headers['Content-Type']).toBe('application/merge-patch+json');
		expect(ctx.sent[0].body).toEqual({
			FirstName: 'Augusta',
			Enabled: true,
			Permissions: [
				{ AccountSid: sb.demo.AccountSid, Scopes: 'Admin' },
				{ PropertySid: sb.demo.PropertySid, Scopes: 'Reporting' },
			],
		});
		expect(out[0][0]).toMatchObject({
			json: { OnlineLoginSid: created.OnlineLoginSid, FirstName: 'Augusta' },
			pairedItem: { item: 0 },
		});

		const after = (
			await run({ operation: 'get', onlineLoginSid: created.OnlineLoginSid }).result
		)[0][0].json;
		expect(after).toMatchObject({
			FirstName: 'Augusta',
			LastName: 'Lovelace',
			Enabled: true,
			Email: 'update@example.com',
		});
		expect(after.Permissions).toHaveLength(2);
	});

	it('sends no Permissions for a Permissions field without entries, leaving them as they are', async () => {
		const created = await createLogin('keep-permissions@example.com');
		const { ctx, result } = run({
			operation: 'update',
			onlineLoginSid: created.OnlineLoginSid,
			updateFields: { Permissions: {}, FirstName: 'Grace' },
		});
		await result;
		expect(ctx.sent[0].body).toEqual({ FirstName: 'Grace' });
		const after = (
			await run({ operation: 'get', onlineLoginSid: created.OnlineLoginSid }).result
		)[0][0].json;
		expect(after.Permissions).toEqual(created.Permissions);
	});

	it('never echoes a new password', async () => {
		const created = await createLogin('password@example.com');
		const out = await run({
			operation: 'update',
			onlineLoginSid: created.OnlineLoginSid,
			updateFields: { Password: 'An0ther!Passw0rd' },
		}).result;
		expect(out[0][0].json).toEqual({
			OnlineLoginSid: created.OnlineLoginSid,
			PasswordChanged: true,
		});
	});

	it('refuses a bad item before any request, naming the field and the item', async () => {
		const { ctx, result } = run(
			{
				operation: 'create',
				propertySid: sb.demo.PropertySid,
				email: (i: number) => (i === 1 ? 'not-an-email' : `ok${i}@example.com`),
				password: PASSWORD,
				firstName: 'A',
				lastName: 'B',
				scopes: ['Manage'],
			},
			{ items: [{ json: {} }, { json: {} }] },
		);
		await expect(result).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(/^Invalid Email: [A-Z_]+$/),
			context: { itemIndex: 1 },
		});
		expect(ctx.sent).toHaveLength(0);
	});

	it('turns a provider error into a NodeApiError with its ErrorCode and field', async () => {
		await createLogin('taken@example.com');
		const { result } = run({
			operation: 'create',
			propertySid: sb.demo.PropertySid,
			email: 'TAKEN@example.com',
			password: PASSWORD,
			firstName: 'A',
			lastName: 'B',
			scopes: ['Manage'],
		});
		const error = await result.then(
			() => undefined,
			(e: unknown) =>
				e as { name: string; message: string; httpCode: string; context: IDataObject },
		);
		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '400',
			context: { ErrorCode: 'DUPLICATE_EMAIL', FieldNames: ['Email'], itemIndex: 0 },
		});
		expect(error?.message).toBe('CloudTel refused Email: DUPLICATE_EMAIL');
		// The provider's sentence once, then the field path.
		const lines = String((error as { description?: string }).description).split('\n');
		expect(lines[lines.length - 1]).toBe('Fields: Email');
		expect(new Set(lines).size).toBe(lines.length);
	});

	it('reports a 404 for an unknown Sid as the item error with Continue On Fail', async () => {
		const items = [{ json: {} }, { json: {} }];
		const known = await createLogin('known@example.com');
		const sids = [known.OnlineLoginSid, '00000000-0000-4000-8000-000000000000'];
		const out = await run(
			{ operation: 'get', onlineLoginSid: (i: number) => sids[i] },
			{ items, onError: 'continueRegularOutput' },
		).result;
		expect(out[0]).toHaveLength(2);
		expect(out[0][0].json.OnlineLoginSid).toBe(known.OnlineLoginSid);
		expect(out[0][1]).toMatchObject({ json: { ErrorCode: 'NOT_FOUND' }, pairedItem: { item: 1 } });
		expect(out[0][1].json.error).toMatch(/NOT_FOUND/);
	});

	it("keeps a failed read's ErrorCode and Message on the error output as n8n 2.x shows it", async () => {
		const items = [{ json: { contact: 'a' } }, { json: { contact: 'b' } }];
		const known = await createLogin('shown@example.com');
		const sids = [known.OnlineLoginSid, '00000000-0000-4000-8000-000000000000'];
		for (const onError of ['continueErrorOutput'] as const) {
			const out = await run(
				{ operation: 'get', onlineLoginSid: (i: number) => sids[i] },
				{ items, onError },
			).result;
			const shown = asN8nShows(out[0], items, onError);
			const failed =
				onError === 'continueErrorOutput'
					? shown.error
					: shown.main.filter((i) => i.json.error !== undefined);
			expect(failed, onError).toHaveLength(1);
			expect(failed[0].json, onError).toMatchObject({
				ErrorCode: 'NOT_FOUND',
				Message: expect.any(String),
			});
			expect(failed[0].json.error, onError).toMatch(/NOT_FOUND/);
			expect(shown.main.map((i) => i.json.OnlineLoginSid).filter(Boolean), onError).toEqual([
				known.OnlineLoginSid,
			]);
		}
	});

	it('sends failed items to the error output', async () => {
		const items = [{ json: {} }, { json: {} }, { json: {} }];
		const emails = ['e0@example.com', 'bad', 'e2@example.com'];
		const out = await run(
			{
				operation: 'create',
				propertySid: sb.demo.PropertySid,
				email: (i: number) => emails[i],
				password: PASSWORD,
				firstName: 'A',
				lastName: 'B',
				scopes: ['Manage'],
			},
			{ items, onError: 'continueErrorOutput' },
		).result;
		const { success, error } = splitErrorOutput(out[0]);
		expect(success.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(error).toHaveLength(1);
		expect(error[0]).toMatchObject({ pairedItem: { item: 1 }, json: { FieldNames: ['Email'] } });
	});

	it("puts no json.error on a failed create, so n8n's Retry On Fail never creates the others twice", async () => {
		const items = [{ json: {} }, { json: {} }];
		const emails = ['TAKEN@example.com', 'retry-safe@example.com'];
		await createLogin('taken@example.com').catch(() => undefined);
		const out = await run(
			{
				operation: 'create',
				propertySid: sb.demo.PropertySid,
				email: (i: number) => emails[i],
				password: PASSWORD,
				firstName: 'A',
				lastName: 'B',
				scopes: ['Manage'],
			},
			{ items, onError: 'continueErrorOutput' },
		).result;
		expect(out[0][0].json).not.toHaveProperty('error');
		expect(out[0][0]).toMatchObject({
			json: { Created: false, ErrorCode: expect.any(String) },
			error: expect.anything(),
			pairedItem: { item: 0 },
		});
		expect(splitErrorOutput(out[0]).error).toHaveLength(1);
	});

	it('pages with NextPageToken once there are more logins than fit a page', async () => {
		// A fresh account with 1,005 logins: more than the largest page (1,000).
		const account = await control<{ AccountSid: string; AuthToken: string }>(
			sb,
			'POST',
			'/accounts',
			{},
		);
		const { PropertySid } = await control<{ PropertySid: string }>(
			sb,
			'POST',
			`/accounts/${account.AccountSid}/properties`,
			{},
		);
		const auth = basicAuthorization(account.AccountSid, account.AuthToken);
		for (let start = 0; start < 1005; start += 100) {
			await Promise.all(
				Array.from({ length: Math.min(100, 1005 - start) }, (_, k) =>
					fetch(`${sb.url}/v2/Properties/${PropertySid}/OnlineLogins`, {
						method: 'POST',
						headers: { authorization: auth, 'content-type': 'application/json' },
						body: JSON.stringify({
							Email: `bulk${start + k}@example.com`,
							Password: PASSWORD,
							FirstName: 'B',
							LastName: 'K',
							Scopes: 'Reporting',
						}),
					}),
				),
			);
		}
		const credentials = {
			...credentialsFor(sb),
			accountSid: account.AccountSid,
			authToken: account.AuthToken,
		};
		const all = executeContext({
			credentials,
			params: { resource: 'onlineLogin', operation: 'getMany', returnAll: true },
		});
		const logins = (await node.execute.call(all))[0];
		expect(logins).toHaveLength(1005);
		expect(new Set(logins.map((l) => l.json.OnlineLoginSid)).size).toBe(1005);
		expect(all.sent.map((r) => new URL(r.url).searchParams.has('PageToken'))).toEqual([
			false,
			true,
		]);

		const limited = executeContext({
			credentials,
			params: { resource: 'onlineLogin', operation: 'getMany', returnAll: false, limit: 1002 },
		});
		expect((await node.execute.call(limited))[0].map((l) => l.json.Email)).toEqual(
			logins.slice(0, 1002).map((l) => l.json.Email),
		);
		expect(limited.sent).toHaveLength(2);

		// The resource locator's list: 100 per page, the token handed back to n8n.
		const search = executeContext({ credentials, params: {} });
		const page1 = await searchOnlineLogins.call(search as never);
		const page2 = await searchOnlineLogins.call(
			search as never,
			undefined,
			page1.paginationToken as string,
		);
		expect(page1.results).toHaveLength(100);
		expect(page2.results[0].value).toBe(logins[100].json.OnlineLoginSid);
	});

	it('lists logins for the resource locator, filtered by name or e-mail', async () => {
		await createLogin('findme@example.com');
		const ctx = executeContext({ credentials: credentialsFor(sb), params: {} });
		const found = await searchOnlineLogins.call(ctx as never, 'FINDME');
		expect(found.results).toEqual([
			{ name: 'Ada Lovelace <findme@example.com>', value: expect.any(String) },
		]);
	});
});
