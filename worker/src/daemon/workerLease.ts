import type { CallbackProcessor } from './callbacks/3-processor/callbackProcessor';
import type { ForwardOutbox } from './callbacks/6-forward/forwardOutbox';
import type { Logger } from './jsonLogger';
import type { PgCluster } from '../storage/postgres/pgCluster';

/** How often a worker renews its lease and looks for lost ones. */
export const LEASE_BEAT_MS = 1_000;
/** A lease not renewed for this long is lost: a few missed beats, not a slow query. */
export const LEASE_STALE_MS = 5_000;

/**
 * This worker's lease among several, renewed every beat. At each beat it also looks for
 * workers whose lease ran out: their chunks in flight are settled (PgCluster.reap), their
 * forwards cut off mid-attempt recovered as after a crash, and callback events they
 * stored but never processed are taken up here.
 */
export class WorkerLease {
	private timer: NodeJS.Timeout | undefined;
	private beating: Promise<void> | undefined;

	constructor(
		private readonly cluster: PgCluster,
		private readonly outbox: ForwardOutbox,
		private readonly processor: CallbackProcessor,
		private readonly log: Logger,
	) {}

	start(): void {
		this.timer = setInterval(() => {
			this.beating ??= this.beat()
				.catch((error: Error) =>
					this.log.error('lease renewal failed; trying again at the next beat', { error }),
				)
				.finally(() => (this.beating = undefined));
		}, LEASE_BEAT_MS);
	}

	private async beat(): Promise<void> {
		await this.cluster.beat();
		const lost = await this.cluster.reap(LEASE_STALE_MS);
		for (const w of lost) {
			const uncertain = w.rows.filter((r) => r.status === 'uncertain');
			this.log.warn(
				'worker lost: its lease ran out; the rows it had on their way are uncertain, the rest of its share is taken by the workers left',
				{
					worker: w.id,
					host: w.host,
					pid: w.pid,
					uncertain: uncertain.length,
					resolvedByReceipt: w.rows.length - uncertain.length,
					uncertainRows: uncertain.slice(0, 100),
				},
			);
		}
		if (lost.length > 0) {
			await this.outbox.recover();
			// What it put back in line is due now: the outbox may be idle for up to half a minute otherwise.
			this.outbox.kick();
		}
		this.processor.kick();
	}

	/** A graceful stop: the others need not wait for this lease to run out. */
	async stop(): Promise<void> {
		if (this.timer) clearInterval(this.timer);
		await this.beating;
		await this.cluster.leave();
		await this.cluster.close();
	}
}
