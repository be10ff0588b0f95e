import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export interface Ipv4Cidr {
	/** The address as an unsigned 32-bit number. */
	address: number;
	prefix: number;
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const CIDR = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}(?:/(\\d{1,2}))?$`);

/** Parses dotted-quad with an optional /prefix; a bare address means /32. */
export function parseIpv4Cidr(value: string): Ipv4Cidr | undefined {
	const m = CIDR.exec(value);
	if (!m) return undefined;
	const address = ((+m[1] << 24) >>> 0) + (+m[2] << 16) + (+m[3] << 8) + +m[4];
	const prefix = m[5] === undefined ? 32 : +m[5];
	if (prefix > 32 || (m[5] !== undefined && m[5].length === 2 && m[5][0] === '0')) return undefined;
	return { address, prefix };
}

/** Blocks that are not public unicast space (RFC 6890 and friends), with why. */
const NOT_PUBLIC: ReadonlyArray<[string, number, string]> = [
	['0.0.0.0', 8, '"this network"'],
	['10.0.0.0', 8, 'private'],
	['100.64.0.0', 10, 'shared address space (carrier-grade NAT)'],
	['127.0.0.0', 8, 'loopback'],
	['169.254.0.0', 16, 'link-local'],
	['172.16.0.0', 12, 'private'],
	['192.0.0.0', 24, 'IETF protocol assignments (reserved)'],
	['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
	['192.88.99.0', 24, 'reserved (6to4 relay anycast)'],
	['192.168.0.0', 16, 'private'],
	['198.18.0.0', 15, 'reserved for benchmarking'],
	['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
	['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
	['224.0.0.0', 4, 'multicast'],
	['240.0.0.0', 4, 'reserved'],
];

function range({ address, prefix }: Ipv4Cidr): [number, number] {
	const size = 2 ** (32 - prefix);
	const start = address - (address % size);
	return [start, start + size - 1];
}

const BLOCKS = NOT_PUBLIC.map(([a, p, why]) => {
	const [start, end] = range(parseIpv4Cidr(`${a}/${p}`)!);
	return { start, end, why };
});

/** Why a range is not public unicast space, or undefined when it all is. */
export function nonPublicReason(cidr: Ipv4Cidr): string | undefined {
	const [start, end] = range(cidr);
	return BLOCKS.find((b) => start <= b.end && b.start <= end)?.why;
}

export const SIP_MIN_PREFIX = 24;

export function checkSipIpAddress(field: string, value: string): Violation | undefined {
	const cidr = parseIpv4Cidr(value);
	if (!cidr) {
		return violation(
			field,
			ErrorCodes.InvalidIpAddress,
			`${field} must be an IPv4 address or CIDR such as 203.0.114.10/32 (got "${value}").`,
		);
	}
	if (cidr.prefix < SIP_MIN_PREFIX) {
		return violation(
			field,
			ErrorCodes.InvalidIpAddress,
			`${field} must be a /24 or smaller range (got /${cidr.prefix}).`,
		);
	}
	const why = nonPublicReason(cidr);
	if (why)
		return violation(
			field,
			ErrorCodes.InvalidIpAddress,
			`${field} must be public address space, not ${why} (got "${value}").`,
		);
	return undefined;
}
