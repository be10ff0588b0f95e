import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../../worker/src/pacing/tokenBucket';

describe('token bucket', () => {
	it('starts with one chunk and refills at the rate', () => {
		let now = 0;
		const b = new TokenBucket(100, 10, () => now);
		expect(b.tryTake(10)).toBe(true);
		expect(b.tryTake(1)).toBe(false);
		expect(b.delayFor(10)).toBe(100);
		now = 50;
		expect(b.delayFor(10)).toBe(50);
		now = 100;
		expect(b.tryTake(10)).toBe(true);
	});
	it('never holds more than its capacity, so a pause is not followed by a burst', () => {
		let now = 0;
		const b = new TokenBucket(100, 10, () => now);
		b.tryTake(10);
		now = 60_000;
		expect(b.tryTake(10)).toBe(true);
		expect(b.tryTake(1)).toBe(false);
	});
	it('averages the rate over many takes', async () => {
		let now = 0;
		const b = new TokenBucket(50, 5, () => now);
		let sent = 0;
		const sleep = async (ms: number) => {
			now += ms;
		};
		while (now < 10_000) {
			await b.take(5, sleep);
			sent += 5;
		}
		expect(sent / (now / 1000)).toBeGreaterThan(49);
		expect(sent / (now / 1000)).toBeLessThan(51);
	});
	it('gives up a take once stopped (a SIGTERM ends its sleeps at once): no busy loop until the tokens come', async () => {
		const b = new TokenBucket(0.01, 1, () => 0);
		expect(b.tryTake(1)).toBe(true);
		const controller = new AbortController();
		let sleeps = 0;
		// An aborted sleep resolves at once, as sleep(ms, signal) does.
		const sleep = async () => {
			if (++sleeps > 100) throw new Error('take spun on an aborted sleep');
			controller.abort();
		};
		expect(await b.take(1, sleep, () => controller.signal.aborted)).toBe(false);
		expect(sleeps).toBe(1);
	});
	it('blocks every sender after a 429 and restarts empty', () => {
		let now = 0;
		const b = new TokenBucket(100, 10, () => now);
		b.block(1000);
		expect(b.delayFor(1)).toBe(1000);
		now = 1000;
		expect(b.delayFor(10)).toBe(100);
	});
	it('with rate 0 has no limit but still honours a block', () => {
		const now = 0;
		const b = new TokenBucket(0, 1000, () => now);
		for (let i = 0; i < 100; i++) expect(b.tryTake(1000)).toBe(true);
		b.block(500);
		expect(b.delayFor(1)).toBe(500);
	});
});
