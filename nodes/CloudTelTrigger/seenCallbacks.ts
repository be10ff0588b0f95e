/**
 * The provider retries a callback that was not answered 2xx, so the same MessageSid and
 * event can arrive again (contract.md: 3 attempts, backing off). This remembers recent
 * callbacks in this n8n process's memory, not in workflow static data: n8n loads and saves
 * static data per webhook request without a lock, so concurrent repeats both passed it, and
 * every callback rewrote the whole list into the workflow's row. Here the check and the
 * record are one synchronous step, so within one process a repeat, concurrent or not, is
 * caught; a repeat handled by another process (queue-mode webhook processes) or after a
 * restart is not.
 */

/** How long a callback is remembered: far longer than the provider's retries take. */
export const REMEMBER_MS = 60 * 60_000;

/** The most callbacks remembered at once in a process; past it the oldest are forgotten. */
export const MAX_REMEMBERED = 10_000;

// Insertion order is arrival order, so the oldest entries are always at the front.
const firstSeen = new Map<string, number>();

/** Forgets what expired, and the oldest beyond MAX_REMEMBERED. */
function prune(now: number): void {
	for (const [key, at] of firstSeen) {
		if (firstSeen.size <= MAX_REMEMBERED && now - at < REMEMBER_MS) return;
		firstSeen.delete(key);
	}
}

/**
 * Whether `key` was seen by the trigger `scope` (its workflow and node) within
 * REMEMBER_MS; records it when it was not.
 */
export function seenBefore(scope: string, key: string, now = Date.now()): boolean {
	const id = `${scope}\u0000${key}`;
	const at = firstSeen.get(id);
	if (at !== undefined && now - at < REMEMBER_MS) return true;
	firstSeen.delete(id);
	firstSeen.set(id, now);
	prune(now);
	return false;
}

/** How many callbacks are remembered now (for tests and diagnostics). */
export function rememberedCount(): number {
	return firstSeen.size;
}
