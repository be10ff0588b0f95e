// Online logins through n8n: Create, Get, Update, Get Many, each checked against the
// sandbox's own state (read over its API, not through n8n).
import assert from 'node:assert/strict';
import { bySid, runCloudTel } from '../lib/steps.mjs';

export const title =
	'Online Login: Create, Get, Update, Get Many in n8n, checked against the sandbox';

/** The node's output less `CreatedIso`, after checking it is `Created` (Unix seconds) as an ISO date. */
function readable(json) {
	const { CreatedIso, ...rest } = json;
	assert.equal(
		CreatedIso,
		new Date(json.Created * 1000).toISOString().replace('.000Z', 'Z'),
		'CreatedIso beside Created',
	);
	return rest;
}

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const propertySid = sandbox.demo.PropertySid;
	const email = `e2e.${Date.now()}@example.com`;
	const stored = async (sid) => {
		const res = await sandbox.api('GET', `/v2/OnlineLogins/${sid}`);
		assert.equal(res.status, 200, `GET /v2/OnlineLogins/${sid}: ${JSON.stringify(res.body)}`);
		return res.body.OnlineLogin ?? res.body;
	};
	let sid;

	await test('Create: the login exists in the sandbox as n8n reported it', async () => {
		const step = await runCloudTel(ctx, {
			resource: 'onlineLogin',
			operation: 'create',
			propertySid,
			email,
			password: 'Correct-Horse9!',
			firstName: 'Ada',
			lastName: 'Lovelace',
			scopes: ['ManageSms', 'Reporting'],
			enabled: false,
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.equal(step.json.length, 1);
		const out = step.json[0];
		sid = out.OnlineLoginSid;
		assert.match(sid, /^[0-9a-f-]{36}$/);
		const login = await stored(sid);
		assert.equal(login.Email, email);
		assert.equal(login.FirstName, 'Ada');
		assert.equal(login.LastName, 'Lovelace');
		assert.equal(login.Enabled, false);
		assert.deepEqual(login.Permissions, [
			{ PropertySid: propertySid, Scopes: 'ManageSms,Reporting' },
		]);
		assert.deepEqual(readable(out), login, 'n8n output = sandbox state');
		assert.equal(
			JSON.stringify(out).includes('Correct-Horse9!'),
			false,
			'no password in the output',
		);
	});

	await test('Get: n8n returns the sandbox state of the login', async () => {
		assert.ok(sid, 'needs the created login');
		const step = await runCloudTel(ctx, {
			resource: 'onlineLogin',
			operation: 'get',
			onlineLoginSid: bySid(sid),
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.deepEqual(step.json.map(readable), [await stored(sid)]);
	});

	await test('Update: only the fields set change; Permissions are replaced', async () => {
		assert.ok(sid, 'needs the created login');
		const before = await stored(sid);
		const step = await runCloudTel(ctx, {
			resource: 'onlineLogin',
			operation: 'update',
			onlineLoginSid: bySid(sid),
			updateFields: {
				FirstName: 'Augusta',
				Enabled: true,
				Permissions: {
					permission: [
						{ target: 'account', scopes: ['Billing'] },
						{ target: 'property', propertySid, scopes: ['Admin'] },
					],
				},
			},
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		const after = await stored(sid);
		assert.equal(after.FirstName, 'Augusta');
		assert.equal(after.Enabled, true);
		assert.equal(after.LastName, before.LastName, 'LastName untouched');
		assert.equal(after.Email, before.Email, 'Email untouched');
		assert.deepEqual(after.Permissions, [
			{ AccountSid: sandbox.demo.AccountSid, Scopes: 'Billing' },
			{ PropertySid: propertySid, Scopes: 'Admin' },
		]);
		assert.equal(step.json[0].OnlineLoginSid, sid);
	});

	await test('Get Many: Return All lists every login of the account, as the sandbox holds them', async () => {
		assert.ok(sid, 'needs the created login');
		const step = await runCloudTel(ctx, {
			resource: 'onlineLogin',
			operation: 'getMany',
			returnAll: true,
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		const list = await sandbox.api('GET', '/v2/OnlineLogins?Results_Count=1000');
		assert.equal(step.json.length, list.body.TotalCount);
		assert.deepEqual(step.json.map(readable), list.body.OnlineLogins);
		assert.deepEqual(readable(step.json.find((l) => l.OnlineLoginSid === sid)), await stored(sid));
	});
}
