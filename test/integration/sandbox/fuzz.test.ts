import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
beforeAll(async () => {
	sb = await SandboxClient.start({ bodyLimit: 64 * 1024 });
});
afterAll(() => sb.close());

const ROUTES: Array<[string, (s: SandboxClient) => string]> = [
	['POST', (s) => `/v2/Properties/${s.demo.PropertySid}/OnlineLogins`],
	['GET', () => '/v2/OnlineLogins'],
	['GET', () => '/v2/OnlineLogins/00000000-0000-4000-8000-000000000000'],
	['PATCH', () => '/v2/OnlineLogins/00000000-0000-4000-8000-000000000000'],
	['PATCH', (s) => `/v2/Properties/${s.demo.PropertySid}`],
	['POST', (s) => `/v2/Properties/${s.demo.PropertySid}/Messages`],
	['POST', (s) => `/v2/Properties/${s.demo.PropertySid}/BatchMessages`],
	['POST', (s) => `/v2/Properties/${s.demo.PropertySid}/SipTrunk`],
	['POST', (s) => `/v2/Accounts/${s.demo.AccountSid}/Addresses`],
	['DELETE', () => '/v2/Addresses/00000000-0000-4000-8000-000000000000'],
	['POST', () => '/_sandbox/accounts'],
	['POST', () => '/_sandbox/replies'],
	['POST', () => '/_sandbox/receipts'],
	['POST', () => '/_sandbox/clock'],
	['POST', () => '/_sandbox/numbers'],
];

const FIELDS = [
	'To',
	'From',
	'Text',
	'Schedule',
	'Messages',
	'Email',
	'Password',
	'Scopes',
	'Permissions',
	'Type',
	'SipTrunkIpAddresses',
	'Line1',
	'CountryCode',
	'AdvanceSeconds',
	'MessageSid',
	'Status',
	'__proto__',
	'constructor',
];
const jsonValue = fc.oneof(
	fc.jsonValue({ maxDepth: 3 }),
	fc.record({
		Messages: fc.array(fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 })), {
			maxLength: 5,
		}),
	}),
);
const body = fc.oneof(
	jsonValue.map((v) => JSON.stringify(v)),
	fc
		.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 }))
		.map((v) => JSON.stringify(v)),
	fc.string({ maxLength: 200 }),
	fc.constant(''),
);
const contentType = fc.constantFrom(
	'application/json',
	'application/merge-patch+json',
	'text/plain',
	'application/json; charset=utf-8',
	'multipart/form-data',
	undefined,
);
const auth = fc.oneof(
	fc.constant('demo'),
	fc.constant(undefined),
	fc.string({ maxLength: 40 }).map((s) => `Basic ${s}`),
	fc.string({ maxLength: 60 }),
);

describe('fuzz: random bodies, headers and paths', () => {
	it('never answers 5xx and never stops answering', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.nat(ROUTES.length - 1),
				body,
				contentType,
				auth,
				async (i, payload, type, authorization) => {
					const [method, path] = ROUTES[i];
					const headers: Record<string, string> = {};
					if (type) headers['content-type'] = type;
					if (authorization === 'demo')
						headers.authorization = sb.authFor(sb.demo.AccountSid, sb.demo.AuthToken);
					else if (authorization !== undefined)
						headers.authorization = authorization.replace(/[^\x20-\x7e]/g, '');
					const r = await fetch(sb.url + path(sb), {
						method,
						headers,
						body: method === 'GET' ? undefined : payload,
					});
					const text = await r.text();
					expect(r.status, `${method} ${path(sb)} ${payload} -> ${text}`).toBeLessThan(500);
					if (r.status >= 400)
						expect(JSON.parse(text).ResponseStatus.ErrorCode).toEqual(expect.any(String));
				},
			),
			{ numRuns: 400 },
		);
		expect((await sb.call('GET', '/_sandbox/health', undefined, { auth: null })).body).toEqual({
			ok: true,
		});
	});

	it('answers random paths with 4xx', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'),
				fc.webPath(),
				async (method, path) => {
					const r = await fetch(sb.url + (path.startsWith('/') ? path : `/${path}`), { method });
					await r.arrayBuffer();
					expect(r.status).toBeGreaterThanOrEqual(200);
					expect(r.status).toBeLessThan(500);
				},
			),
			{ numRuns: 300 },
		);
	});
});
