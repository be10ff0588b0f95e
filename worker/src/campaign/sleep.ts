/** Node's timers hold at most 2^31 - 1 ms; a longer one fires after 1 ms, every time (a busy loop). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** setTimeout as a promise that an abort ends early (resolving, not throwing); a wait over MAX_TIMER_MS ends then, for its caller to look again. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal?.aborted) return resolve();
		const timer = setTimeout(done, timerMs(ms));
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener('abort', done);
			resolve();
		}
		signal?.addEventListener('abort', done, { once: true });
	});
}

/** A delay as a timer can hold it: 0 to MAX_TIMER_MS. */
export function timerMs(ms: number): number {
	return Math.min(MAX_TIMER_MS, Math.max(0, Number.isFinite(ms) ? ms : MAX_TIMER_MS));
}
