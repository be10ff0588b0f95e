/**
 * NextPageToken is opaque to clients; here it carries the offset of the next page, with a
 * prefix so a stray value is recognised as not ours.
 */
const PREFIX = 'ct1.';

export function encodePageToken(offset: number): string {
	return PREFIX + Buffer.from(String(offset)).toString('base64url');
}

export function decodePageToken(token: string): number | undefined {
	if (!token.startsWith(PREFIX)) return undefined;
	const text = Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8');
	return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}
