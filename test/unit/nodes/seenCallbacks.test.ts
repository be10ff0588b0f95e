import { describe, expect, it } from 'vitest';
import {
	MAX_REMEMBERED,
	REMEMBER_MS,
	rememberedCount,
	seenBefore,
} from '../../../nodes/CloudTelTrigger/seenCallbacks';

describe("the trigger's record of recent callbacks", () => {
	it('reports a repeat of the same trigger, not of another trigger', () => {
		const now = 1_000_000;
		expect(seenBefore('wf-a/node', 'receipt:m1', now)).toBe(false);
		expect(seenBefore('wf-a/node', 'receipt:m1', now + 1)).toBe(true);
		expect(seenBefore('wf-a/node', 'reply:m1', now + 2)).toBe(false);
		expect(seenBefore('wf-b/node', 'receipt:m1', now + 3)).toBe(false);
	});

	it('forgets a callback once REMEMBER_MS has passed', () => {
		const now = 2_000_000_000;
		expect(seenBefore('wf-t/node', 'receipt:old', now)).toBe(false);
		expect(seenBefore('wf-t/node', 'receipt:old', now + REMEMBER_MS - 1)).toBe(true);
		expect(seenBefore('wf-t/node', 'receipt:old', now + REMEMBER_MS)).toBe(false);
	});

	it('never holds more than MAX_REMEMBERED callbacks, forgetting the oldest first', () => {
		const now = 3_000_000_000;
		for (let i = 0; i <= MAX_REMEMBERED + 50; i++) seenBefore('wf-bound/node', `receipt:${i}`, now);
		expect(rememberedCount()).toBe(MAX_REMEMBERED);
		expect(seenBefore('wf-bound/node', `receipt:${MAX_REMEMBERED + 50}`, now)).toBe(true);
		expect(seenBefore('wf-bound/node', 'receipt:0', now)).toBe(false);
	});
});
