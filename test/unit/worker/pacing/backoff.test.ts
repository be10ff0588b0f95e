import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../../api';
import { backoffDelay } from '../../../../worker/src/pacing/backoff';

describe('back-off', () => {
	const policy = { baseMs: 100, maxMs: 1000, maxAttempts: 5 };
	it('doubles, with jitter in the upper half, up to the ceiling', () => {
		expect(backoffDelay(1, policy, () => 0)).toBe(50);
		expect(backoffDelay(1, policy, () => 1)).toBe(100);
		expect(backoffDelay(3, policy, () => 1)).toBe(400);
		expect(backoffDelay(10, policy, () => 1)).toBe(1000);
		expect(backoffDelay(10, policy, () => 0)).toBe(500);
	});
	it('reads Retry-After as seconds or an HTTP date', () => {
		expect(retryAfterMs('2')).toBe(2000);
		expect(retryAfterMs(['1.5'])).toBe(1500);
		expect(retryAfterMs(new Date(10_000).toUTCString(), 7_000)).toBe(3000);
		expect(retryAfterMs(undefined)).toBeUndefined();
		expect(retryAfterMs('soon')).toBeUndefined();
	});
});
