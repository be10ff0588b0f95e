import type { LogFields, Logger } from '../jsonLogger';

const WINDOW_MS = 60_000;

interface Tally {
	count: number;
	since: number;
	fields: LogFields;
	timer: NodeJS.Timeout;
}

/**
 * Refused requests, logged one line per reason a minute at most: the first at once, with
 * what it was, then the count of those since, each minute while they keep coming. Anyone
 * can send requests; a line each let 63,000 of them write 10 MB in 4 seconds.
 */
export class RefusalLog {
	private readonly tallies = new Map<string, Tally>();

	constructor(
		private readonly log: Logger,
		private readonly windowMs = WINDOW_MS,
	) {}

	refused(reason: string, fields: LogFields = {}): void {
		const tally = this.tallies.get(reason);
		if (tally) {
			tally.count++;
			return;
		}
		this.log.warn('request refused', { reason, count: 1, ...fields });
		this.open(reason, fields);
	}

	private open(reason: string, fields: LogFields): void {
		const timer = setTimeout(() => this.close(reason, true), this.windowMs);
		timer.unref();
		this.tallies.set(reason, { count: 0, since: Date.now(), fields, timer });
	}

	/** The count of a window; a new one opens while they keep coming. */
	private close(reason: string, reopen: boolean): void {
		const tally = this.tallies.get(reason);
		if (!tally) return;
		clearTimeout(tally.timer);
		this.tallies.delete(reason);
		if (tally.count === 0) return;
		this.log.warn('requests refused', {
			reason,
			count: tally.count,
			sinceMs: Date.now() - tally.since,
			...tally.fields,
		});
		if (reopen) this.open(reason, tally.fields);
	}

	/** Logs what is counted and not yet logged: at a stop, nothing goes unsaid. */
	flush(): void {
		for (const reason of [...this.tallies.keys()]) this.close(reason, false);
	}
}
