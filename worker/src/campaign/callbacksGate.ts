import { hostname } from 'node:os';
import type { CallbacksStamp, Ledger } from '../storage/ledger';
import type { Reporter } from './reporter';
import { sleep } from './sleep';

/** A worker stamps every second while its callbacks are in: a stamp this old means it has not been able to. */
const FRESH_MS = 3_000;
/** How long sending waits for one worker's stamp, counted from when this run first saw it old: a worker SIGKILLed never stamps again. */
export const CALLBACKS_WAIT_MS = 15_000;
/** A stamp this old is a worker gone long ago, not one catching up. */
const FORGOTTEN_MS = 10 * 60_000;
const LOOK_EVERY_MS = 200;

/**
 * The last thing before a chunk's look at the suppression list: callbacks a worker took
 * while the store was down (spooled) may hold a STOP, so sending waits until every worker
 * sharing the store says, by a fresh stamp, that what it took is in and processed; for at
 * most CALLBACKS_WAIT_MS per worker, with a line when it waits and when it goes on. The
 * same for every runner (campaign run, cron, API), as the stamps are in the store.
 */
export class CallbacksGate {
	/** When this run first saw each worker's stamp old (performance.now()). */
	private readonly oldSince = new Map<string, number>();

	constructor(
		private readonly ledger: Pick<Ledger, 'callbacksStamps'>,
		private readonly reporter: Reporter,
		private readonly signal?: AbortSignal,
		private readonly waitMs = CALLBACKS_WAIT_MS,
	) {}

	async wait(): Promise<void> {
		let waitedFor: string[] = [];
		for (;;) {
			const now = performance.now();
			const holding: string[] = [];
			for (const s of await this.ledger.callbacksStamps()) {
				if (s.ageMs <= FRESH_MS || s.ageMs >= FORGOTTEN_MS || gone(s)) {
					this.oldSince.delete(s.worker);
					continue;
				}
				const since = this.oldSince.get(s.worker) ?? now;
				this.oldSince.set(s.worker, since);
				if (now - since < this.waitMs) holding.push(s.worker);
				else if (waitedFor.includes(s.worker))
					this.reporter.event(
						'callbacks-gave-up',
						{ worker: s.worker, waitedMs: Math.round(now - since) },
						`sending goes on: worker ${s.worker} has not said its callbacks are in for ${Math.round((now - since) / 1000)} s`,
					);
			}
			if (holding.length === 0 || this.signal?.aborted) {
				if (waitedFor.length > 0)
					this.reporter.event(
						'callbacks-in',
						{ workers: waitedFor },
						'sending goes on: the callbacks workers took while the store was down are in',
					);
				return;
			}
			if (waitedFor.length === 0)
				this.reporter.event(
					'callbacks-waiting',
					{ workers: holding },
					`sending waits: callbacks a worker took while the store was down (a STOP among them) are being taken in first, for at most ${this.waitMs / 1000} s`,
				);
			waitedFor = [...new Set([...waitedFor, ...holding])];
			await sleep(LOOK_EVERY_MS, this.signal);
		}
	}
}

/** A worker on this host whose process is gone: it takes no callbacks, and its spool is fed by whoever starts next. */
function gone(s: CallbacksStamp): boolean {
	if (s.host !== hostname() || s.pid === undefined) return false;
	try {
		process.kill(s.pid, 0);
		return false;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'ESRCH';
	}
}
