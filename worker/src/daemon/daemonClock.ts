/**
 * The worker's clock for what it waits on itself (a variant decision, a delivery's maxAge): the
 * wall clock, moved on only by a test's `clock` command (testControl.ts), so a wait of hours is
 * proven at once.
 */
let offsetMs = 0;

export const daemonClock = {
	now: (): number => Date.now() + offsetMs,
	advance(ms: number): void {
		offsetMs += ms;
	},
};
