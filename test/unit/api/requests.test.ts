import { describe, expect, it } from 'vitest';
import {
	MERGE_PATCH_CONTENT_TYPE,
	basicAuthorization,
	joinUrl,
	paths,
	requests,
	validatePathSid,
} from '../../../api';
import { ACCOUNT_SID, PROPERTY_SID, SEND, pairs } from './helpers';

const LOGIN_SID = '0a1b2c3d-0000-4000-8000-00000000000c';

describe('paths: every one starts with /v2', () => {
	it.each([
		['onlineLogins', paths.onlineLogins(), '/v2/OnlineLogins'],
		['onlineLogin', paths.onlineLogin(LOGIN_SID), `/v2/OnlineLogins/${LOGIN_SID}`],
		[
			'propertyOnlineLogins',
			paths.propertyOnlineLogins(PROPERTY_SID),
			`/v2/Properties/${PROPERTY_SID}/OnlineLogins`,
		],
		['property', paths.property(PROPERTY_SID), `/v2/Properties/${PROPERTY_SID}`],
		['messages', paths.messages(PROPERTY_SID), `/v2/Properties/${PROPERTY_SID}/Messages`],
		[
			'batchMessages',
			paths.batchMessages(PROPERTY_SID),
			`/v2/Properties/${PROPERTY_SID}/BatchMessages`,
		],
		['sipTrunk', paths.sipTrunk(PROPERTY_SID), `/v2/Properties/${PROPERTY_SID}/SipTrunk`],
		['addresses', paths.addresses(ACCOUNT_SID), `/v2/Accounts/${ACCOUNT_SID}/Addresses`],
		['address', paths.address('addr-1'), '/v2/Addresses/addr-1'],
	])('%s', (_name, path, expected) => {
		expect(path).toBe(expected);
	});

	it('escapes a Sid so it cannot leave its path segment', () => {
		expect(paths.onlineLogin('../Properties/x')).toBe('/v2/OnlineLogins/..%2FProperties%2Fx');
		expect(paths.property('a b?c#d')).toBe('/v2/Properties/a%20b%3Fc%23d');
	});
});

describe('request shapes', () => {
	it.each([
		[
			'createOnlineLogin',
			requests.createOnlineLogin(PROPERTY_SID, {
				Email: 'a@b.co',
				Password: 'p',
				FirstName: 'A',
				LastName: 'B',
				Scopes: 'Manage',
			}),
			'POST',
			paths.propertyOnlineLogins(PROPERTY_SID),
		],
		['listOnlineLogins', requests.listOnlineLogins(), 'GET', '/v2/OnlineLogins'],
		['getOnlineLogin', requests.getOnlineLogin(LOGIN_SID), 'GET', paths.onlineLogin(LOGIN_SID)],
		[
			'updateOnlineLogin',
			requests.updateOnlineLogin(LOGIN_SID, { Enabled: true }),
			'PATCH',
			paths.onlineLogin(LOGIN_SID),
		],
		[
			'updateProperty',
			requests.updateProperty(PROPERTY_SID, { SmsEnabled: true }),
			'PATCH',
			paths.property(PROPERTY_SID),
		],
		['sendMessage', requests.sendMessage(PROPERTY_SID, SEND), 'POST', paths.messages(PROPERTY_SID)],
		[
			'sendBatch',
			requests.sendBatch(PROPERTY_SID, [SEND]),
			'POST',
			paths.batchMessages(PROPERTY_SID),
		],
		[
			'createSipTrunk',
			requests.createSipTrunk(PROPERTY_SID, {
				Name: 'n',
				DefaultCallerId: '+61212345678',
				Type: 0,
			}),
			'POST',
			paths.sipTrunk(PROPERTY_SID),
		],
		[
			'addAddress',
			requests.addAddress(ACCOUNT_SID, { Line1: 'l', City: 'c', CountryCode: 'AU' }),
			'POST',
			paths.addresses(ACCOUNT_SID),
		],
		['deleteAddress', requests.deleteAddress('addr-1'), 'DELETE', paths.address('addr-1')],
	])('%s', (name, request, method, path) => {
		expect(request.method).toBe(method);
		expect(request.path).toBe(path);
		expect(request.path.startsWith('/v2/')).toBe(true);
		// Only the two partial updates are merge patches.
		expect(request.contentType).toBe(method === 'PATCH' ? MERGE_PATCH_CONTENT_TYPE : undefined);
		if (method === 'GET' || method === 'DELETE') expect(request.body).toBeUndefined();
		else expect(request.body, name).toBeDefined();
	});

	it('a patch body is sent as given: absent fields stay absent', () => {
		expect(requests.updateOnlineLogin(LOGIN_SID, { Enabled: false }).body).toEqual({
			Enabled: false,
		});
	});

	it('a batch wraps the messages in {Messages}', () => {
		expect(requests.sendBatch(PROPERTY_SID, [SEND, SEND]).body).toEqual({ Messages: [SEND, SEND] });
	});

	it('list parameters drop what is unset or empty', () => {
		expect(
			requests.listOnlineLogins({ Results_Count: 10, Results_Skip: undefined, PageToken: '' })
				.query,
		).toEqual({ Results_Count: 10 });
		expect(
			requests.listOnlineLogins({ Results_Count: 10, Results_Skip: 0, PageToken: 'tok' }).query,
		).toEqual({ Results_Count: 10, Results_Skip: 0, PageToken: 'tok' });
		expect(requests.listOnlineLogins().query).toEqual({});
	});
});

describe('basicAuthorization: HTTP Basic with AccountSid and AuthToken', () => {
	it.each([
		[ACCOUNT_SID, 'token'],
		['user', 'p:ss:word'],
		['usér', 'tökén€'],
		['', ''],
	])('%j / %j', (user, token) => {
		expect(basicAuthorization(user, token)).toBe(
			`Basic ${Buffer.from(`${user}:${token}`, 'utf8').toString('base64')}`,
		);
	});
});

describe('joinUrl', () => {
	it.each([
		[
			'https://api.example.com',
			'/v2/OnlineLogins',
			undefined,
			'https://api.example.com/v2/OnlineLogins',
		],
		[
			'https://api.example.com/',
			'/v2/OnlineLogins',
			undefined,
			'https://api.example.com/v2/OnlineLogins',
		],
		[
			'https://api.example.com///',
			'/v2/OnlineLogins',
			undefined,
			'https://api.example.com/v2/OnlineLogins',
		],
		[
			'http://127.0.0.1:4010/base',
			'/v2/OnlineLogins',
			undefined,
			'http://127.0.0.1:4010/base/v2/OnlineLogins',
		],
		[
			'http://127.0.0.1:4010/base/',
			'/v2/OnlineLogins',
			{},
			'http://127.0.0.1:4010/base/v2/OnlineLogins',
		],
		[
			'http://h',
			'/v2/OnlineLogins',
			{ Results_Count: 10, PageToken: 'a+b/c=' },
			'http://h/v2/OnlineLogins?Results_Count=10&PageToken=a%2Bb%2Fc%3D',
		],
		[
			'http://h',
			'/v2/OnlineLogins',
			{ 'odd key': 'x y&z' },
			'http://h/v2/OnlineLogins?odd%20key=x%20y%26z',
		],
	])('%s + %s', (base, path, query, expected) => {
		expect(joinUrl(base, path, query)).toBe(expected);
	});

	it('query values survive a round trip through URL', () => {
		const url = new URL(
			joinUrl('http://h', '/v2/OnlineLogins', { PageToken: 'ä&=?#/ +', Results_Skip: 0 }),
		);
		expect(url.searchParams.get('PageToken')).toBe('ä&=?#/ +');
		expect(url.searchParams.get('Results_Skip')).toBe('0');
	});
});

describe("validatePathSid: a Sid for a path must be present; its format is the provider's business (404)", () => {
	it.each([
		[PROPERTY_SID, []],
		['not-a-uuid', []],
		[PROPERTY_SID.toUpperCase(), []],
		['', ['PropertySid FIELD_REQUIRED']],
		['   ', ['PropertySid FIELD_REQUIRED']],
		[undefined, ['PropertySid FIELD_REQUIRED']],
		[null, ['PropertySid FIELD_REQUIRED']],
		[42, ['PropertySid FIELD_REQUIRED']],
		[[PROPERTY_SID], ['PropertySid FIELD_REQUIRED']],
	])('%j', (value, expected) => {
		expect(pairs(validatePathSid('PropertySid', value))).toEqual(expected);
	});
});
