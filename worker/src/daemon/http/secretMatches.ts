import { createHash, timingSafeEqual } from 'node:crypto';

/** Compared as digests, in constant time: neither length nor content leaks through timing. */
export function secretMatches(given: string, secret: string): boolean {
	const a = createHash('sha256').update(given).digest();
	const b = createHash('sha256').update(secret).digest();
	return timingSafeEqual(a, b) && given.length > 0;
}
