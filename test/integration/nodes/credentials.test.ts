import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { basicAuthorization } from '../../../api';
import { CloudTelApi } from '../../../credentials/CloudTelApi.credentials';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { executeContext, testCredential } from './fakeN8n';
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

describe('CloudTel API credential: Base URL', () => {
	const baseUrl = new CloudTelApi().properties.find((p) => p.name === 'baseUrl')!;

	it('is required, with no default (a loopback default fails a real account with ECONNREFUSED) and an example placeholder', () => {
		expect(baseUrl).toMatchObject({ required: true, default: '' });
		expect(baseUrl.placeholder).toMatch(/^e\.g\. https:\/\//);
	});
});

describe('CloudTel API credential: Default Property SID', () => {
	const node = new CloudTel();
	const send = { resource: 'message', operation: 'send', from: 'CloudTel', to: '+61412345678', text: 'Hi' };

	it('is optional', () => {
		expect(new CloudTelApi().properties.find((p) => p.name === 'defaultPropertySid')).toMatchObject({ default: '', type: 'string' });
		expect(new CloudTelApi().properties.find((p) => p.name === 'defaultPropertySid')?.required).toBeFalsy();
	});

	it("is used by a node whose own Property SID is empty", async () => {
		const ctx = executeContext({ credentials: { ...credentialsFor(sb), defaultPropertySid: sb.demo.PropertySid }, params: { ...send, propertySid: '' } });
		const [[item]] = await node.execute.call(ctx);
		expect(item.json).toMatchObject({ MessageSid: expect.any(String) });
		expect(ctx.sent[0].url).toContain(`/Properties/${sb.demo.PropertySid}/`);
	});

	it("gives way to the node's own Property SID", async () => {
		const ctx = executeContext({ credentials: { ...credentialsFor(sb), defaultPropertySid: 'not-this-one' }, params: { ...send, propertySid: sb.demo.PropertySid } });
		await node.execute.call(ctx);
		expect(ctx.sent[0].url).toContain(`/Properties/${sb.demo.PropertySid}/`);
	});

	it('when both are empty, fails naming Property SID and the credential, sending nothing', async () => {
		const ctx = executeContext({ credentials: credentialsFor(sb), params: { ...send, propertySid: '' } });
		await expect(node.execute.call(ctx)).rejects.toMatchObject({ message: 'Invalid Property SID: FIELD_REQUIRED', description: expect.stringMatching(/Default Property SID/) });
		expect(ctx.sent).toHaveLength(0);
	});
});
