import { describe, expect, it } from 'vitest';
import { SipTrunkType, validateCreateSipTrunk } from '../../../api';
import { pairs } from './helpers';

const IP_TRUNK = {
	Name: 'Main',
	DefaultCallerId: '+61212345678',
	Type: 0,
	SipTrunkIpAddresses: [{ IpAddress: '8.8.8.0/24' }],
};
const AUTH_TRUNK = {
	Name: 'Main',
	DefaultCallerId: '+61212345678',
	Type: 1,
	SipTrunkCredentials: { Realm: 'sip.example.com', Password: 'Abcdefgh1!' },
};

describe('create SIP trunk', () => {
	it('the two types are 0 (IP to IP) and 1 (Authenticated)', () => {
		expect(SipTrunkType).toEqual({ IpToIp: 0, Authenticated: 1 });
	});

	it('accepts a minimal trunk of each type, and one with every optional field', () => {
		expect(validateCreateSipTrunk(IP_TRUNK)).toEqual([]);
		expect(validateCreateSipTrunk(AUTH_TRUNK)).toEqual([]);
		expect(
			validateCreateSipTrunk({
				...IP_TRUNK,
				SipTrunkIpAddresses: [{ IpAddress: '8.8.8.0/24' }, { IpAddress: '1.1.1.1' }],
				SipTrunkAllowedCountries: [{ CountryCode: 'AU' }, { CountryCode: 'NZ' }],
				ChannelLimit: 30,
				CustomerReference: 'PO-1234',
			}),
		).toEqual([]);
	});

	it('requires Name, DefaultCallerId and Type, all at once', () => {
		expect(pairs(validateCreateSipTrunk({}))).toEqual([
			'DefaultCallerId FIELD_REQUIRED',
			'Name FIELD_REQUIRED',
			'Type FIELD_REQUIRED',
		]);
		expect(pairs(validateCreateSipTrunk({ Name: '  ', DefaultCallerId: '', Type: null }))).toEqual([
			'DefaultCallerId FIELD_REQUIRED',
			'Name FIELD_REQUIRED',
			'Type FIELD_REQUIRED',
		]);
	});

	it.each([
		[2, ['Type INVALID_TRUNK_TYPE']],
		[-1, ['Type INVALID_TRUNK_TYPE']],
		[0.5, ['Type INVALID_TYPE']],
		['0', ['Type INVALID_TYPE']],
		[true, ['Type INVALID_TYPE']],
	])('Type %j', (type, expected) => {
		expect(pairs(validateCreateSipTrunk({ ...IP_TRUNK, Type: type }))).toEqual(expected);
	});
});

describe('Type 0 / Type 1 conditions', () => {
	it.each([
		['Type 0 with one address', IP_TRUNK, []],
		[
			'Type 0 with no addresses field',
			{ ...IP_TRUNK, SipTrunkIpAddresses: undefined },
			['SipTrunkIpAddresses FIELD_REQUIRED'],
		],
		[
			'Type 0 with an empty list',
			{ ...IP_TRUNK, SipTrunkIpAddresses: [] },
			['SipTrunkIpAddresses FIELD_REQUIRED'],
		],
		[
			'Type 0 with null',
			{ ...IP_TRUNK, SipTrunkIpAddresses: null },
			['SipTrunkIpAddresses FIELD_REQUIRED'],
		],
		[
			'Type 0 with credentials too',
			{ ...IP_TRUNK, SipTrunkCredentials: AUTH_TRUNK.SipTrunkCredentials },
			['SipTrunkCredentials INVALID_TRUNK_TYPE'],
		],
		[
			'Type 0 with credentials and no addresses',
			{ ...IP_TRUNK, SipTrunkIpAddresses: [], SipTrunkCredentials: AUTH_TRUNK.SipTrunkCredentials },
			['SipTrunkCredentials INVALID_TRUNK_TYPE', 'SipTrunkIpAddresses FIELD_REQUIRED'],
		],
		['Type 1 with credentials', AUTH_TRUNK, []],
		[
			'Type 1 without credentials',
			{ ...AUTH_TRUNK, SipTrunkCredentials: undefined },
			['SipTrunkCredentials FIELD_REQUIRED'],
		],
		['Type 1 with an empty address list', { ...AUTH_TRUNK, SipTrunkIpAddresses: [] }, []],
		[
			'Type 1 with addresses too',
			{ ...AUTH_TRUNK, SipTrunkIpAddresses: [{ IpAddress: '8.8.8.8' }] },
			['SipTrunkIpAddresses INVALID_TRUNK_TYPE'],
		],
		[
			'Type 1 with addresses and no credentials',
			{
				...AUTH_TRUNK,
				SipTrunkCredentials: undefined,
				SipTrunkIpAddresses: [{ IpAddress: '8.8.8.8' }],
			},
			['SipTrunkCredentials FIELD_REQUIRED', 'SipTrunkIpAddresses INVALID_TRUNK_TYPE'],
		],
	])('%s', (_label, body, expected) => {
		expect(pairs(validateCreateSipTrunk(body))).toEqual(expected);
	});
});

describe('nested fields are named with their path', () => {
	it.each([
		['Realm missing', { Password: 'Abcdefgh1!' }, ['SipTrunkCredentials.Realm FIELD_REQUIRED']],
		['Password missing', { Realm: 'r' }, ['SipTrunkCredentials.Password FIELD_REQUIRED']],
		[
			'Password 9 characters',
			{ Realm: 'r', Password: 'Abcdefg1!' },
			['SipTrunkCredentials.Password INVALID_PASSWORD'],
		],
		['Password 10 characters', { Realm: 'r', Password: 'Abcdefgh1!' }, []],
		[
			'Password tripled',
			{ Realm: 'r', Password: 'Abcdefff1!' },
			['SipTrunkCredentials.Password INVALID_PASSWORD'],
		],
		[
			'both wrong types',
			{ Realm: 1, Password: true },
			['SipTrunkCredentials.Password INVALID_TYPE', 'SipTrunkCredentials.Realm INVALID_TYPE'],
		],
	])('credentials: %s', (_label, credentials, expected) => {
		expect(
			pairs(validateCreateSipTrunk({ ...AUTH_TRUNK, SipTrunkCredentials: credentials })),
		).toEqual(expected);
	});

	it.each([
		['an array', [{ Realm: 'r', Password: 'Abcdefgh1!' }]],
		['a string', 'r:Abcdefgh1!'],
	])('credentials as %s is INVALID_TYPE', (_label, credentials) => {
		expect(
			pairs(validateCreateSipTrunk({ ...AUTH_TRUNK, SipTrunkCredentials: credentials })),
		).toEqual(['SipTrunkCredentials INVALID_TYPE']);
	});

	it('every bad address is reported with its index', () => {
		const ips = [
			{ IpAddress: '8.8.8.0/24' },
			{ IpAddress: '8.8.8.0/23' },
			{ IpAddress: '10.0.0.1' },
			{},
			'1.1.1.1',
			{ IpAddress: 8 },
		];
		expect(pairs(validateCreateSipTrunk({ ...IP_TRUNK, SipTrunkIpAddresses: ips }))).toEqual([
			'SipTrunkIpAddresses[1].IpAddress INVALID_IP_ADDRESS',
			'SipTrunkIpAddresses[2].IpAddress INVALID_IP_ADDRESS',
			'SipTrunkIpAddresses[3].IpAddress FIELD_REQUIRED',
			'SipTrunkIpAddresses[4] INVALID_TYPE',
			'SipTrunkIpAddresses[5].IpAddress INVALID_TYPE',
		]);
	});

	it('addresses as an object, not an array, is INVALID_TYPE (and Type 0 then has none)', () => {
		expect(
			pairs(validateCreateSipTrunk({ ...IP_TRUNK, SipTrunkIpAddresses: { IpAddress: '8.8.8.8' } })),
		).toEqual(['SipTrunkIpAddresses FIELD_REQUIRED', 'SipTrunkIpAddresses INVALID_TYPE']);
	});

	it('every bad allowed country is reported with its index', () => {
		const countries = [
			{ CountryCode: 'AU' },
			{ CountryCode: 'au' },
			{ CountryCode: 'AUS' },
			{ Country: 'NZ' },
			'NZ',
		];
		expect(
			pairs(validateCreateSipTrunk({ ...IP_TRUNK, SipTrunkAllowedCountries: countries })),
		).toEqual([
			'SipTrunkAllowedCountries[1].CountryCode INVALID_COUNTRY_CODE',
			'SipTrunkAllowedCountries[2].CountryCode INVALID_COUNTRY_CODE',
			'SipTrunkAllowedCountries[3].CountryCode FIELD_REQUIRED',
			'SipTrunkAllowedCountries[4] INVALID_TYPE',
		]);
	});
});

describe('ChannelLimit: an integer, 1 or more', () => {
	it.each([
		[1, []],
		[0, ['ChannelLimit OUT_OF_RANGE']],
		[-1, ['ChannelLimit OUT_OF_RANGE']],
		[2, []],
		[1000, []],
		[1.5, ['ChannelLimit INVALID_TYPE']],
		['1', ['ChannelLimit INVALID_TYPE']],
		[null, []],
	])('%j', (limit, expected) => {
		expect(pairs(validateCreateSipTrunk({ ...IP_TRUNK, ChannelLimit: limit }))).toEqual(expected);
	});
});

describe('every violation of a trunk at once', () => {
	it('lists each field, nested ones by path, with the right codes', () => {
		const body = {
			Name: 7,
			DefaultCallerId: '+611300123456',
			Type: 1,
			SipTrunkIpAddresses: [{ IpAddress: '192.168.1.0/24' }],
			SipTrunkCredentials: { Realm: '', Password: 'short' },
			SipTrunkAllowedCountries: [{ CountryCode: 'Australia' }],
			ChannelLimit: 0,
			CustomerReference: ['x'],
		};
		expect(pairs(validateCreateSipTrunk(body))).toEqual([
			'ChannelLimit OUT_OF_RANGE',
			'CustomerReference INVALID_TYPE',
			'DefaultCallerId INVALID_CALLER_ID',
			'Name INVALID_TYPE',
			'SipTrunkAllowedCountries[0].CountryCode INVALID_COUNTRY_CODE',
			'SipTrunkCredentials.Password INVALID_PASSWORD',
			'SipTrunkCredentials.Realm FIELD_REQUIRED',
			'SipTrunkIpAddresses INVALID_TRUNK_TYPE',
			'SipTrunkIpAddresses[0].IpAddress INVALID_IP_ADDRESS',
		]);
	});

	it.each([[null], [[IP_TRUNK]], ['trunk']])(
		'a body that is not an object (%j) is one INVALID_TYPE',
		(body) => {
			expect(pairs(validateCreateSipTrunk(body))).toEqual([' INVALID_TYPE']);
		},
	);
});
