import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	SIP_MIN_PREFIX,
	checkSipIpAddress,
	nonPublicReason,
	parseIpv4Cidr,
} from '../../../api';

const quad = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

describe('parseIpv4Cidr', () => {
	it.each([
		['8.8.8.8', 0x08080808, 32],
		['8.8.8.0/24', 0x08080800, 24],
		['0.0.0.0/0', 0, 0],
		['255.255.255.255/32', 0xffffffff, 32],
		['203.0.114.10/9', 0xcb00720a, 9],
	])('%s', (value, address, prefix) => {
		expect(parseIpv4Cidr(value)).toEqual({ address, prefix });
	});

	it.each([
		'256.1.1.1',
		'1.1.1',
		'1.1.1.1.1',
		'01.1.1.1',
		'1.1.1.010',
		'1.1.1.1/33',
		'1.1.1.1/08',
		'1.1.1.1/',
		'1.1.1.1/-1',
		'1.1.1.1/100',
		' 1.1.1.1',
		'1.1.1.1 ',
		'1.1.1.1/24 ',
		'a.b.c.d',
		'::1',
		'2001:db8::/32',
		'',
		'0x08.8.8.8',
	])('%j does not parse', (value) => {
		expect(parseIpv4Cidr(value)).toBeUndefined();
		expect(checkSipIpAddress('IpAddress', value)).toMatchObject({
			FieldName: 'IpAddress',
			ErrorCode: ErrorCodes.InvalidIpAddress,
		});
	});

	it('round-trips every dotted quad and prefix', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 0xffffffff }),
				fc.integer({ min: 0, max: 32 }),
				(n, p) => {
					const bare = parseIpv4Cidr(quad(n));
					const withPrefix = parseIpv4Cidr(`${quad(n)}/${p}`);
					return (
						bare?.address === n &&
						bare.prefix === 32 &&
						withPrefix?.address === n &&
						withPrefix.prefix === p
					);
				},
			),
		);
	});
});

describe('SIP trunk addresses: IPv4 /24 to /32, public unicast only', () => {
	it('the widest prefix is /24', () => {
		expect(SIP_MIN_PREFIX).toBe(24);
	});

	it.each([
		['8.8.8.0/24', true],
		['8.8.8.0/23', false],
		['8.8.8.8/32', true],
		['8.8.8.8', true],
		['8.8.8.128/25', true],
		['8.8.8.0/16', false],
		['8.8.8.0/0', false],
		['8.8.8.77/24', true],
	])('%s -> %s', (value, ok) => {
		const v = checkSipIpAddress('IpAddress', value);
		if (ok) expect(v).toBeUndefined();
		else
			expect(v).toMatchObject({
				ErrorCode: ErrorCodes.InvalidIpAddress,
				Message: expect.stringMatching(/\/24 or smaller/),
			});
	});

	// Each refused block: its first and last address, a /24 inside it, and the public
	// neighbours just outside it.
	const BLOCKS: Array<[string, string, string, string, RegExp]> = [
		['0.0.0.0/8', '0.0.0.0', '0.255.255.255', '1.0.0.0', /this network/],
		['10.0.0.0/8', '10.0.0.0', '10.255.255.255', '9.255.255.255 11.0.0.0', /private/],
		['100.64.0.0/10', '100.64.0.0', '100.127.255.255', '100.63.255.255 100.128.0.0', /shared/],
		['127.0.0.0/8', '127.0.0.0', '127.255.255.255', '126.255.255.255 128.0.0.0', /loopback/],
		[
			'169.254.0.0/16',
			'169.254.0.0',
			'169.254.255.255',
			'169.253.255.255 169.255.0.0',
			/link-local/,
		],
		['172.16.0.0/12', '172.16.0.0', '172.31.255.255', '172.15.255.255 172.32.0.0', /private/],
		['192.0.0.0/24', '192.0.0.0', '192.0.0.255', '191.255.255.255 192.0.1.0', /reserved/],
		['192.0.2.0/24', '192.0.2.0', '192.0.2.255', '192.0.1.255 192.0.3.0', /documentation/],
		['192.88.99.0/24', '192.88.99.0', '192.88.99.255', '192.88.98.255 192.88.100.0', /reserved/],
		['192.168.0.0/16', '192.168.0.0', '192.168.255.255', '192.167.255.255 192.169.0.0', /private/],
		['198.18.0.0/15', '198.18.0.0', '198.19.255.255', '198.17.255.255 198.20.0.0', /benchmarking/],
		[
			'198.51.100.0/24',
			'198.51.100.0',
			'198.51.100.255',
			'198.51.99.255 198.51.101.0',
			/documentation/,
		],
		[
			'203.0.113.0/24',
			'203.0.113.0',
			'203.0.113.255',
			'203.0.112.255 203.0.114.0',
			/documentation/,
		],
		['224.0.0.0/4', '224.0.0.0', '239.255.255.255', '223.255.255.255', /multicast/],
		['240.0.0.0/4', '240.0.0.0', '255.255.255.255', '223.255.255.255', /reserved/],
	];

	describe.each(BLOCKS)('%s', (_block, first, last, neighbours, why) => {
		it.each([
			first,
			last,
			`${first}/24`,
			`${last}/32`,
			`${quad((parseIpv4Cidr(last)!.address & 0xffffff00) >>> 0)}/24`,
		])('refuses %s', (value) => {
			const v = checkSipIpAddress('IpAddress', value);
			expect(v).toMatchObject({ FieldName: 'IpAddress', ErrorCode: ErrorCodes.InvalidIpAddress });
			expect(v?.Message).toMatch(why);
		});

		it.each(neighbours.split(' '))(
			'accepts its public neighbour %s (as /32 and its /24)',
			(value) => {
				expect(checkSipIpAddress('IpAddress', value)).toBeUndefined();
				const slash24 = `${quad((parseIpv4Cidr(value)!.address & 0xffffff00) >>> 0)}/24`;
				expect(checkSipIpAddress('IpAddress', slash24)).toBeUndefined();
			},
		);
	});

	it.each([
		'1.1.1.1',
		'8.8.4.4/32',
		'20.0.0.0/24',
		'101.0.0.0/24',
		'192.31.196.0/24',
		'223.255.255.0/24',
	])('accepts public %s', (value) => {
		expect(checkSipIpAddress('IpAddress', value)).toBeUndefined();
	});

	it('nonPublicReason judges the whole range, not only the address written', () => {
		expect(nonPublicReason({ address: parseIpv4Cidr('10.0.0.0')!.address, prefix: 8 })).toBe(
			'private',
		);
		expect(
			nonPublicReason({ address: parseIpv4Cidr('9.255.255.0')!.address, prefix: 24 }),
		).toBeUndefined();
		expect(nonPublicReason({ address: parseIpv4Cidr('11.0.0.0')!.address, prefix: 7 })).toBe(
			'private',
		);
		expect(
			nonPublicReason({ address: parseIpv4Cidr('9.0.0.0')!.address, prefix: 7 }),
		).toBeUndefined();
	});

	it('any /24..32 range inside 10/8 is refused; any just below it is accepted', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 0xffffff }),
				fc.integer({ min: 24, max: 32 }),
				(low, p) => {
					return (
						checkSipIpAddress('Ip', `${quad(0x0a000000 + low)}/${p}`) !== undefined &&
						checkSipIpAddress('Ip', `${quad(0x09000000 + low)}/${p}`) === undefined
					);
				},
			),
		);
	});
});
