// n8n's own credential test (what the editor runs on Save and Retry) for the CloudTel API
// credential, through the line's running n8n's REST API: it passes only when CloudTel answers, and
// says what answered otherwise.
import assert from 'node:assert/strict';
import { freePort } from '../../support/freePort.mjs';
import { CREDENTIAL_TYPE } from '../lib/workflows.mjs';

export const title = 'Credential test: CloudTel or a plain account of what answered instead';

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const server = ctx.n8n;
	const data = {
		baseUrl: sandbox.url,
		accountSid: sandbox.demo.AccountSid,
		authToken: sandbox.demo.AuthToken,
	};
	const check = (changes) =>
		server.testCredential({
			...ctx.credential,
			type: CREDENTIAL_TYPE,
			data: { ...data, ...changes },
		});

	await test('passes for the demo account, also with a Base URL ending in /v2', async () => {
		assert.equal((await check({})).status, 'OK');
		const v2 = await check({ baseUrl: `${sandbox.url}/v2` });
		assert.equal(v2.status, 'OK', JSON.stringify(v2));
	});

	await test("fails with n8n's own address as the Base URL, saying an HTML page answered", async () => {
		const result = await check({ baseUrl: server.url });
		assert.equal(result.status, 'Error', JSON.stringify(result));
		const expected = `not CloudTel's API: check the Base URL of the CloudTel API credential (now "${server.url}"): it must be the root of the CloudTel API your account uses.`;
		assert.match(result.message, /^The Base URL answered an HTML page \(HTTP \d{3}\), /);
		assert.ok(result.message.endsWith(expected), result.message);
	});

	await test('words an unreachable or malformed Base URL as the node does', async () => {
		const closed = `http://127.0.0.1:${await freePort()}`;
		const refused = await check({ baseUrl: closed });
		assert.equal(refused.status, 'Error');
		assert.equal(
			refused.message,
			`Could not reach CloudTel (ECONNREFUSED): check the Base URL of the CloudTel API credential (now "${closed}"): it must be the root of the CloudTel API your account uses.`,
		);
		const nowhere = await check({ baseUrl: 'http://cloudtel.invalid' });
		assert.equal(nowhere.status, 'Error');
		assert.match(
			nowhere.message,
			/^Could not reach CloudTel \((ENOTFOUND|EAI_AGAIN)\): check the Base URL .*\(now "http:\/\/cloudtel\.invalid"\)/,
		);
		const malformed = await check({ baseUrl: 'cloudtel dot example' });
		assert.equal(malformed.status, 'Error');
		assert.match(
			malformed.message,
			/^Could not reach CloudTel \(.+\): check the Base URL .*\(now "cloudtel dot example"\)/,
		);
	});

	await test('keeps the 401 message for a wrong token', async () => {
		const result = await check({ authToken: 'wrong' });
		assert.equal(result.status, 'Error');
		assert.match(result.message, /Account SID and Auth Token \(401\)/);
	});
}
