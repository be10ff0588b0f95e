import { describe, expect, it } from 'vitest';
import { optOutOf, optOutWord } from '../../../../worker/src/storage/evidence';

describe("evidence: a row's opt-out and whether it went after one", () => {
	const trail = [
		{ at: 100, kind: 'consent', reason: 'web form' },
		{ at: 200, kind: 'opt-out', reason: 'replied STOP' },
		{ at: 210, kind: 'confirmation', reason: 'sent from +61400000001: bye' },
		{ at: 300, kind: 'opt-in', reason: 'replied START: "start"' },
		{ at: 400, kind: 'opt-out', reason: 'replied "remove me"' },
	];

	it('a message before the opt-out: the opt-out that followed it, its word, suppression and confirmation', () => {
		expect(optOutOf(trail, 150, 190)).toEqual({
			optOutAt: 190,
			optOutWord: 'STOP',
			suppressedAt: 200,
			confirmationAt: 210,
			sentAfterOptOut: false,
		});
	});

	it('a message handed over while an opt-out stood is sent after it; one after the opt-in is not', () => {
		expect(optOutOf(trail, 250, undefined).sentAfterOptOut).toBe(true);
		expect(optOutOf(trail, 350, undefined)).toMatchObject({
			sentAfterOptOut: false,
			optOutWord: 'remove me',
			suppressedAt: 400,
		});
		expect(optOutOf(trail, 450, undefined).sentAfterOptOut).toBe(true);
	});

	it('a row never sent went after nothing', () => {
		expect(optOutOf(trail, undefined, undefined).sentAfterOptOut).toBe(false);
	});

	it('reads the word of a recorded reason', () => {
		expect(optOutWord('replied REVOKE')).toBe('REVOKE');
		expect(optOutWord('replied "take me off", accepted on review')).toBe('take me off');
		expect(optOutWord('reply rule spam')).toBe('reply rule spam');
	});
});
