import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundLoop } from '../../../../worker/src/pacing/backgroundLoop';

/** A pass the test lets finish (or throw) when it says. */
function gate() {
	let open!: () => void;
	let fail!: (error: Error) => void;
	const done = new Promise<void>((resolve, reject) => {
		open = resolve;
		fail = reject;
	});
	return { done, open, fail };
}

describe('BackgroundLoop', () => {
	afterEach(() => void vi.useRealTimers());

	it('a kick during a pass runs exactly one more pass after it, never two at once', async () => {
		const gates = [gate(), gate()];
		let passes = 0;
		let atOnce = 0;
		let most = 0;
		const loop = new BackgroundLoop({
			run: async () => {
				atOnce++;
				most = Math.max(most, atOnce);
				await gates[passes++]?.done;
				atOnce--;
			},
			backoff: { baseMs: 100, maxMs: 1_000 },
		});
		loop.kick();
		expect(passes).toBe(0); // not started: kicks are not acted on
		loop.start();
		loop.kick();
		loop.kick();
		loop.kick();
		expect(passes).toBe(1);
		gates[0].open();
		await vi.waitFor(() => expect(passes).toBe(2));
		gates[1].open();
		await loop.idle();
		expect(passes).toBe(2);
		expect(most).toBe(1);
	});

	it('backs off longer after each failure, and from the start again after a pass goes through', async () => {
		vi.useFakeTimers();
		const delays: number[] = [];
		const recovered: number[] = [];
		let failing = 3;
		let passes = 0;
		const loop = new BackgroundLoop({
			run: async () => {
				passes++;
				if (failing-- > 0) throw new Error('the store is down');
			},
			backoff: { baseMs: 100, maxMs: 350 },
			random: () => 1,
			failed: (_error, _failures, delayMs) => void delays.push(delayMs),
			recovered: (failures) => void recovered.push(failures),
		});
		loop.start();
		loop.kick();
		await loop.idle();
		// A kick does not cut a back-off short...
		loop.kick();
		expect(passes).toBe(1);
		await vi.advanceTimersByTimeAsync(100);
		await loop.idle();
		await vi.advanceTimersByTimeAsync(200);
		await loop.idle();
		await vi.advanceTimersByTimeAsync(350);
		await loop.idle();
		expect(delays).toEqual([100, 200, 350]);
		expect(recovered).toEqual([3]);
		expect(passes).toBe(4);
		failing = 1;
		loop.kick();
		await loop.idle();
		expect(delays).toEqual([100, 200, 350, 100]);
		// ...unless it says the cause is gone.
		loop.kick(true);
		await loop.idle();
		expect(passes).toBe(6);
		expect(recovered).toEqual([3, 1]);
	});

	it('stop waits for the pass in hand and runs none after it', async () => {
		const g = gate();
		let passes = 0;
		let finished = false;
		const loop = new BackgroundLoop({
			run: async () => {
				passes++;
				await g.done;
				finished = true;
			},
			backoff: { baseMs: 100, maxMs: 1_000 },
		});
		loop.start();
		loop.kick();
		loop.kick(); // would run one more pass
		const stopped = loop.stop().then(() => finished);
		g.open();
		expect(await stopped).toBe(true);
		loop.kick();
		expect(passes).toBe(1);
	});
});
