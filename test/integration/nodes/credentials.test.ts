import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { basicAuthorization } from '../../../api';
import { CloudTelApi } from '../../../credentials/CloudTelApi.credentials';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { executeContext, testCredential } from './fakeN8n';
import { credentialsFor, sandboxForFile } from './sandboxControl';

let sb: RunningSandbox;

/** Another web server: answers every request with one page. */
async function pageServer(
	status: number,
	type: string,
	body: string,
): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((_req, res) =>
		res.writeHead(status, { 'content-type': type }).end(body),
	);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

sandboxForFile((started) => (sb = started));

describe('CloudTel API credential', () => {
	it('signs requests with HTTP Basic, AccountSid and AuthToken', async () => {
		const signed = await new CloudTelApi().authenticate(
			{ accountSid: 'a', authToken: 'b' },
			{ url: 'x', headers: { Accept: 'application/json' } },
		);
		expect(signed.headers).toEqual({
			Accept: 'application/json',
			Authorization: basicAuthorization('a', 'b'),
		});
	});

	it('passes its test against the sandbox, listing one login', async () => {
		expect(await testCredential(credentialsFor(sb))).toEqual({
			status: 'OK',
			message: expect.any(String),
		});
	});

	it('explains a 401', async () => {
		expect(await testCredential(credentialsFor(sb, 'not-the-token'))).toEqual({
			status: 'Error',
			message: expect.stringMatching(/Account SID and Auth Token \(401\)/),
		});
	});

	it('accepts a Base URL ending in /v2, as the node does', async () => {
		expect(await testCredential({ ...credentialsFor(sb), baseUrl: `${sb.url}/v2/` })).toMatchObject(
			{ status: 'OK' },
		);
	});

	it('explains a Base URL that is not the API root', async () => {
		expect(await testCredential({ ...credentialsFor(sb), baseUrl: `${sb.url}/api` })).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^No CloudTel API at this Base URL \(404 NOT_FOUND\): check the Base URL .*\(now ".*\/api"\).*without \/v2/,
			),
		});
	});

	it("fails when an HTML page answers 200 (n8n's own editor at :5678), saying what answered", async () => {
		const html = await pageServer(
			200,
			'text/html; charset=utf-8',
			'<!DOCTYPE html><html><head><title>n8n.io</title></head><body></body></html>',
		);
		try {
			expect(await testCredential({ ...credentialsFor(sb), baseUrl: html.url })).toEqual({
				status: 'Error',
				message: `The Base URL answered an HTML page (HTTP 200), not CloudTel's API: check the Base URL of the CloudTel API credential (now "${html.url}"): it must be the root of the CloudTel API your account uses.`,
			});
		} finally {
			await html.close();
		}
	});

	it("fails when JSON that is not CloudTel's answers 200", async () => {
		const other = await pageServer(200, 'application/json', '{"status":"ok"}');
		try {
			expect(await testCredential({ ...credentialsFor(sb), baseUrl: other.url })).toEqual({
				status: 'Error',
				message: expect.stringMatching(
					/^The Base URL answered HTTP 200 with JSON without a list of online logins, not CloudTel's API: check the Base URL/,
				),
			});
		} finally {
			await other.close();
		}
	});

	it('words an unreachable Base URL as the node does: Could not reach CloudTel, the code, the Base URL in use', async () => {
		const closed = await pageServer(200, 'text/plain', '');
		await closed.close();
		expect(await testCredential({ ...credentialsFor(sb), baseUrl: closed.url })).toEqual({
			status: 'Error',
			message: `Could not reach CloudTel (ECONNREFUSED): check the Base URL of the CloudTel API credential (now "${closed.url}"): it must be the root of the CloudTel API your account uses.`,
		});
		expect(await testCredential({ ...credentialsFor(sb), baseUrl: 'not a url' })).toMatchObject({
			status: 'Error',
			message: expect.stringMatching(
				/^Could not reach CloudTel \(.+\): check the Base URL .*\(now "not a url"\)/,
			),
		});
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
	const send = {
		resource: 'message',
		operation: 'send',
		from: 'CloudTel',
		to: '+61412345678',
		text: 'Hi',
	};

	it('is optional', () => {
		expect(new CloudTelApi().properties.find((p) => p.name === 'defaultPropertySid')).toMatchObject(
			{ default: '', type: 'string' },
		);
		expect(
			new CloudTelApi().properties.find((p) => p.name === 'defaultPropertySid')?.required,
		).toBeFalsy();
	});

	it('is used by a node whose own Property SID is empty', async () => {
		const ctx = executeContext({
			credentials: { ...credentialsFor(sb), defaultPropertySid: sb.demo.PropertySid },
			params: { ...send, propertySid: '' },
		});
		const [[item]] = await node.execute.call(ctx);
		expect(item.json).toMatchObject({ MessageSid: expect.any(String) });
		expect(ctx.sent[0].url).toContain(`/Properties/${sb.demo.PropertySid}/`);
	});

	it("gives way to the node's own Property SID", async () => {
		const ctx = executeContext({
			credentials: { ...credentialsFor(sb), defaultPropertySid: 'not-this-one' },
			params: { ...send, propertySid: sb.demo.PropertySid },
		});
		await node.execute.call(ctx);
		expect(ctx.sent[0].url).toContain(`/Properties/${sb.demo.PropertySid}/`);
	});

	it("when both are empty, fails naming the node's Property SID field and the credential's default, sending nothing", async () => {
		const ctx = executeContext({
			credentials: credentialsFor(sb),
			params: { ...send, propertySid: '' },
		});
		await expect(node.execute.call(ctx)).rejects.toMatchObject({
			message: 'Invalid Property SID: FIELD_REQUIRED',
			description: expect.stringMatching(
				/this node's Property SID field, or the Default Property SID of the CloudTel API credential/,
			),
		});
		expect(ctx.sent).toHaveLength(0);
	});
});
