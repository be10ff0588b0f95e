import type { ScheduledTask } from 'node-cron';

/**
 * More ticks than this in one grace period (a seconds cron over hours) are not walked: only
 * the latest is run and node-cron's matcher costs about a millisecond a tick.
 */
const MAX_TICKS = 2_000;

interface TimeMatcher {
	getNextMatch(date: Date): Date;
}

/**
 * The ticks of a scheduled task after `from` and before `to`, oldest first, in the task's
 * own time zone (node-cron's matcher walks the fields rather than every second). Of more
 * than MAX_TICKS (a seconds cron over hours), the latest: those are the ones caught up.
 */
export function ticksBetween(task: ScheduledTask, from: number, to: number): Date[] {
	const ticks = walk(task, from, to);
	// A cron ticks at most once a second, so the last MAX_TICKS seconds hold the latest ticks.
	return ticks.length < MAX_TICKS ? ticks : walk(task, Math.max(from, to - MAX_TICKS * 1000), to);
}

function walk(task: ScheduledTask, from: number, to: number): Date[] {
	const matcher = (task as unknown as { timeMatcher?: TimeMatcher }).timeMatcher;
	const out: Date[] = [];
	if (matcher) {
		for (let at = new Date(from); out.length < MAX_TICKS; ) {
			at = matcher.getNextMatch(at);
			if (at.getTime() >= to) break;
			out.push(at);
		}
		return out;
	}
	// A node-cron without its matcher where we look: minute by minute, as a 5-field cron ticks.
	for (let at = Math.ceil(from / 60_000) * 60_000; at < to && out.length < MAX_TICKS; at += 60_000)
		if (task.match(new Date(at))) out.push(new Date(at));
	return out;
}
