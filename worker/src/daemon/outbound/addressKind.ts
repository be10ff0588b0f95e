import { isIP } from 'node:net';

/** The kinds of address an API caller's URL may not reach unless the config allows its host. */
export type InnerAddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified';

/**
 * What an IP address is, when it is one of this machine's or its networks': loopback,
 * private (RFC 1918, shared 100.64/10, IPv6 unique local), link-local (cloud metadata at
 * 169.254.169.254) or unspecified; undefined for a public one. IPv4 inside IPv6
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`, NAT64 `64:ff9b::`) is judged as the IPv4.
 */
export function addressKind(address: string): InnerAddressKind | undefined {
	const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
	const version = isIP(bare);
	if (version === 4) return ipv4Kind(bare.split('.').map(Number));
	if (version === 6) return ipv6Kind(ipv6Groups(bare));
	return undefined;
}

function ipv4Kind([a, b]: number[]): InnerAddressKind | undefined {
	if (a === 0) return 'unspecified';
	if (a === 127) return 'loopback';
	if (
		a === 10 ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 100 && b >= 64 && b <= 127)
	)
		return 'private';
	if (a === 169 && b === 254) return 'link-local';
	return undefined;
}

function ipv6Kind(g: number[]): InnerAddressKind | undefined {
	const zerosTo = (n: number) => g.slice(0, n).every((x) => x === 0);
	const v4 = () => [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
	if (zerosTo(8)) return 'unspecified';
	if (zerosTo(7) && g[7] === 1) return 'loopback';
	// Mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 decides.
	if (
		(zerosTo(5) && g[5] === 0xffff) ||
		zerosTo(6) ||
		(g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
	)
		return ipv4Kind(v4());
	if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
	if ((g[0] & 0xfe00) === 0xfc00) return 'private';
	return undefined;
}

/** The eight 16-bit groups of an IPv6 address (valid, as isIP said), a dotted IPv4 tail as two. */
function ipv6Groups(address: string): number[] {
	let text = address.toLowerCase();
	const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
	if (dotted) {
		const [a, b, c, d] = dotted.slice(1).map(Number);
		text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const [head, tail] = text.split('::');
	const part = (s: string | undefined) => (s ? s.split(':').map((x) => parseInt(x, 16)) : []);
	const front = part(head);
	const back = part(tail);
	return tail === undefined
		? front
		: [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}
