import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns something truthy, and returns that; past `timeoutMs` it
 * throws naming `what`, so a failed scenario says what never happened.
 */
export async function waitFor(what, probe, { timeoutMs = 60_000, intervalMs = 500 } = {}) {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(intervalMs);
	}
}
