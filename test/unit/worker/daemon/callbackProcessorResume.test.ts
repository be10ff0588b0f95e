import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallbackProcessor } from '../../../../worker/src/daemon/callbacks/3-processor/callbackProcessor';
import type { ForwardOutbox } from '../../../../worker/src/daemon/callbacks/6-forward/forwardOutbox';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import type { EventStore } from '../../../../worker/src/storage/daemonStore';
import type { CallbackLedger, LedgerReader } from '../../../../worker/src/storage/ledger';

afterEach(() => {
	vi.useRealTimers();
	vi.restoreAllMocks();
});

/** An event store that is down until told otherwise, counting the processor's looks. */
function downStore() {
	let down = true;
	const seen = { looks: 0 };
	const store = {
		unprocessedEvents: async () => {
			seen.looks++;
			if (down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
			return [];
		},
		completeEvents: async () => undefined,
		processingAlone: (pass: () => Promise<unknown>) => pass(),
	} as unknown as EventStore;
	return { store, seen, up: () => (down = false) };
}

describe('the callback processor after a store outage', () => {
	// Through a long outage its back-off grows to 5 s; the intake, having just fed its spool
	// into the store, knows the store answers, and the backlog must not wait out the timer.
	it('a kick from the intake (storeAnswers) ends the back-off at once; an ordinary kick waits for it', async () => {
		vi.useFakeTimers();
		// The back-off's jitter at its top: each wait is its whole ceiling, as the steps below count.
		vi.spyOn(Math, 'random').mockReturnValue(1);
		const { store, seen, up } = downStore();
		const processor = new CallbackProcessor(
			store,
			{} as CallbackLedger & Pick<LedgerReader, 'campaign'>,
			[],
			{ kick: () => undefined } as unknown as ForwardOutbox,
			new JsonLogger(() => undefined),
		);
		processor.start();
		// Failures back off 250, 500, 1,000, 2,000, 4,000 ms: six looks after 7.75 s.
		for (const ms of [250, 500, 1000, 2000, 4000]) {
			await vi.advanceTimersByTimeAsync(0);
			await vi.advanceTimersByTimeAsync(ms);
		}
		await vi.advanceTimersByTimeAsync(0);
		expect(seen.looks).toBe(6);
		up();
		// Now 5 s to the next look: an ordinary kick (a callback stored) leaves it there.
		processor.kick();
		await vi.advanceTimersByTimeAsync(100);
		expect(seen.looks).toBe(6);
		expect(processor.passes).toBe(0);
		processor.kick(true);
		await vi.advanceTimersByTimeAsync(0);
		expect(seen.looks).toBe(7);
		expect(processor.passes).toBe(1);
	});
});
