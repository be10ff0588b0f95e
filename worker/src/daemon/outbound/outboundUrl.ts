import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { allowEntry } from '../../config/outboundAllow';
import { addressKind } from './addressKind';

export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) =>
	(await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why a URL's host may not be reached when an API caller names it, as a reason; `retry` when its name does not resolve now. */
export interface OutboundRefusal {
	reason: string;
	/** The name did not resolve: may pass later (DNS), unlike an address that is inner. */
	unresolved?: boolean;
}

/**
 * A URL an API caller gives (a campaign's `events`): refused when it carries credentials,
 * or when its host is, or resolves to, a loopback, private, link-local or unspecified
 * address, unless config `outbound.allow` lists the host (`host` or `host:port`). The
 * WHATWG parser has already turned numeric spellings (0x7f000001, 2130706433) into the
 * dotted address. Checked when given and again when sent, since a name may resolve
 * elsewhere later.
 */
export async function outboundRefusal(
	url: string,
	allow: readonly string[],
	resolve: Resolve = resolveAll,
): Promise<OutboundRefusal | undefined> {
	const u = new URL(url);
	if (u.username !== '' || u.password !== '')
		return {
			reason:
				'must not carry a user name or password (user:pass@): give the receiver its secret some other way',
		};
	if (isAllowed(u, allow)) return undefined;
	const host = u.hostname.replace(/^\[|\]$/g, '');
	let addresses: string[];
	try {
		addresses = isIP(host) ? [host] : await resolve(host);
	} catch (error) {
		return {
			reason: `has a host that does not resolve (${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
			unresolved: true,
		};
	}
	for (const address of addresses) {
		const kind = addressKind(address);
		if (kind)
			return {
				reason: `points at a ${kind} address (${host === address ? address : `${host} is ${address}`}): only hosts listed in the worker's config outbound.allow may be`,
			};
	}
	return undefined;
}

/** `host` or `host:port` in outbound.allow, normalised as a URL's host is (lower case, brackets, numeric spellings). */
function isAllowed(u: URL, allow: readonly string[]): boolean {
	const port = u.port || (u.protocol === 'https:' ? '443' : '80');
	return allow.some((entry) => {
		const e = allowEntry(entry);
		return (
			e !== undefined && e.hostname === u.hostname && (e.port === undefined || e.port === port)
		);
	});
}
