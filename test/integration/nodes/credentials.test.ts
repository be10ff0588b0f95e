import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { basicAuthorization } from '../../../api';
import { CloudTelApi } from '../../../credentials/CloudTelApi.credentials';
import { testCredential } from './fakeN8n';
import { credentialsFor } from './sandboxControl';

let sb: RunningSandbox;
beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => sb.close());

describe('CloudTel API credential', () => {
	it('signs requests with HTTP Basic, AccountSid and AuthToken', async () => {
		const signed = await new CloudTelApi().authenticate({ accountSid: 'a', authToken: 'b' }, { url: 'x', headers: { Accept: 'application/json' } });
		expect(signed.headers).toEqual({ Accept: 'application/json', Authorization: basicAuthorization('a', 'b') });
	});

	it('passes its test against the sandbox, listing one login', async () => {
		expect(await testCredential(credentialsFor(sb))).toEqual({ status: 'OK', message: expect.any(String) });
		expect(new CloudTelApi().test.request.qs).toEqual({ Results_Count: 1 });
	});

	it('explains a 401', async () => {
		expect(await testCredential(credentialsFor(sb, 'not-the-token'))).toEqual({ status: 'Error', message: expect.stringMatching(/Account SID and Auth Token \(401\)/) });
	});

	it('explains a Base URL that is not the API root', async () => {
		expect(await testCredential({ ...credentialsFor(sb), baseUrl: `${sb.url}/v2` })).toEqual({ status: 'Error', message: expect.stringMatching(/without \/v2/) });
	});
});
