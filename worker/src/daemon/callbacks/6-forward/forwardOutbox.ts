import type { OutboxConfig } from '../../../config/workerConfigSchema';
import { backoffDelay } from '../../../pacing/backoff';
import { BackgroundLoop, type LoopPass } from '../../../pacing/backgroundLoop';
import type { ForwardJob, OutboxStore } from '../../../storage/daemonStore';
import type { Logger } from '../../jsonLogger';
import type { ForwardOutcome, Forwarder } from './forwardOutcome';
import type { EventForwarder } from './eventForwarder';
import {
	forwardMessageSid,
	isCallbackForward,
	isEventForward,
	type ForwardKind,
	type QueuedForward,
} from './forwardPayload';
import type { N8nForwarder } from './n8nForwarder';
import { destinationOf } from './forwardDestination';
import { isDeadDelivery } from './deadDelivery';
import { daemonClock } from '../../daemonClock';

/** However far off the next retry is, look again this often: a kick may have been missed. */
const MAX_IDLE_MS = 30_000;
/** A store that does not answer is asked again after this, doubling up to 5 s. */
const STORE_BACKOFF = { baseMs: 250, maxMs: 5_000 };
/**
 * An attempt under way this long holds none of the shared slots any more: its receiver is
 * slow (an events URL that never answers, say), and only its own forwards wait for it, each
 * receiver having `concurrency` attempts of its own at most.
 */
const SLOW_MS = 300;
/** A forward claimed while its receiver had no room goes back in line for this long. */
const NO_ROOM_MS = 1_000;

/**
 * The durable outbox of forwards. Each attempt is marked `sending` before it starts
 * (synced for an SMS, see OutboxStore.claimDue) and settled after; a failure waits out a
 * back-off and goes again, until it succeeds or reaches the attempt limit, and is then
 * marked failed and reported.
 */
export class ForwardOutbox {
	private readonly inflight = new Set<Promise<void>>();
	/** Attempts holding one of the `concurrency` shared slots (not yet slow). */
	private shared = 0;
	/** Attempts under way per receiver (destinationOf). */
	private readonly perDestination = new Map<string, number>();
	/** Every kick looks now: a wait is only until the next forward falls due. */
	private readonly pump = new BackgroundLoop({
		run: () => this.pumpOnce(),
		// The store is down or full: nothing was claimed, so nothing is lost; look again soon.
		backoff: STORE_BACKOFF,
		failed: (error, failures, delayMs) => {
			if (failures === 0)
				this.log.error('outbox: the store does not answer; trying again', { error, delayMs });
		},
		recovered: (failures) => this.log.info('outbox: the store answers again', { failures }),
	});
	private refillQueued = false;
	private stopping = false;
	private emailError: string | undefined;
	/** `events.maxAge`, read at each failure (a reload may change it). */
	private maxAgeMs: () => number | undefined = () => undefined;

	constructor(
		private readonly store: OutboxStore,
		private readonly forwarders: Partial<Record<ForwardKind, Forwarder>>,
		private readonly config: OutboxConfig,
		private readonly log: Logger,
		/** Callbacks for n8n (config forward.n8n), when configured. */
		private readonly n8n?: N8nForwarder,
		/** Events for the events URLs (config `events`, a campaign's own). */
		private readonly events?: EventForwarder,
	) {}

	/**
	 * Forwards a crash cut off mid-attempt. An e-mail or a post goes again, carrying the
	 * same Message-ID or Idempotency-Key; an SMS could reach a phone twice, which no one can
	 * take back, so it is marked uncertain and reported instead.
	 */
	async recover(): Promise<void> {
		const now = Date.now();
		for (const job of await this.store.interruptedForwards()) {
			if (job.payload.action.type === 'forwardSms') {
				await this.store.markUncertain(
					job.id,
					'the worker stopped during this attempt; the SMS may have been sent',
					now,
				);
				this.log.error(
					'forward uncertain',
					this.fields(job, { reason: 'interrupted by a crash; not sent again' }),
				);
			} else {
				await this.store.requeue(job.id, now);
				this.log.warn('forward interrupted; sending again', this.fields(job));
			}
		}
	}

	/**
	 * Attempts begin: kicks before this are not acted on. `recover` runs first, and must
	 * find only attempts a crash or the copy before this one cut off, never one of this
	 * outbox's own, which it would send a second time.
	 */
	start(): void {
		this.pump.start();
		this.kick();
	}

	/** Deliveries by HTTP failing longer than this are marked dead (isDeadDelivery). */
	markDeadAfter(maxAgeMs: () => number | undefined): void {
		this.maxAgeMs = maxAgeMs;
	}

	/** Looks for due forwards now; cheap to call after every new reply. */
	kick(): void {
		if (!this.stopping) this.pump.kick(true);
	}

	/**
	 * After an attempt settles: attempts settling in the same turn of the event loop (a
	 * burst's do) share one look at the queue rather than one each.
	 */
	private refill(): void {
		if (this.refillQueued) return;
		this.refillQueued = true;
		setImmediate(() => {
			this.refillQueued = false;
			this.kick();
		});
	}

	/** Takes no new attempt and waits for those under way, which settle as usual. */
	async stop(): Promise<void> {
		this.stopping = true;
		// A pump under way may be marking a forward `sending`: its attempt must start and settle.
		await this.pump.stop();
		while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
		await Promise.allSettled(
			[...Object.values(this.forwarders), this.n8n, this.events].map((f) => f?.close()),
		);
	}

	/** Attempts under way now. */
	get busy(): number {
		return this.inflight.size;
	}

	private async pumpOnce(): Promise<LoopPass | void> {
		const room = this.config.concurrency - this.shared;
		if (room > 0 && !this.stopping) {
			for (const job of await this.store.claimDue(Date.now(), room)) {
				const destination = destinationOf(job.payload as QueuedForward);
				if ((this.perDestination.get(destination) ?? 0) >= this.config.concurrency) {
					const now = Date.now();
					// Claimed and not put back, it would wait for a restart: then it goes now, over the cap.
					if (
						await this.store.putBack(job.id, now + NO_ROOM_MS, now).then(
							() => true,
							() => false,
						)
					)
						continue;
				}
				this.begin(job, destination);
			}
		}
		// While every slot is busy, a finishing (or slow) attempt kicks the pump; no timer needed.
		if (this.stopping || this.shared >= this.config.concurrency) return;
		const next = await this.store.nextDueAt();
		return {
			waitMs:
				next === undefined ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(0, next - Date.now())),
		};
	}

	/** Starts an attempt in a shared slot, which it gives up once it is slow (SLOW_MS). */
	private begin(job: ForwardJob, destination: string): void {
		this.shared++;
		this.perDestination.set(destination, (this.perDestination.get(destination) ?? 0) + 1);
		let holding = true;
		const release = () => {
			if (!holding) return;
			holding = false;
			this.shared--;
			this.refill();
		};
		const slow = setTimeout(release, SLOW_MS);
		slow.unref();
		const attempt = this.attempt(job).finally(() => {
			clearTimeout(slow);
			const left = (this.perDestination.get(destination) ?? 1) - 1;
			if (left > 0) this.perDestination.set(destination, left);
			else this.perDestination.delete(destination);
			this.inflight.delete(attempt);
			release();
			this.refill();
		});
		this.inflight.add(attempt);
	}

	private async attempt(job: ForwardJob): Promise<void> {
		// Stored by this outbox's own completeEvents, so it is what was queued.
		const payload = job.payload as QueuedForward;
		const unconfigured: ForwardOutcome = {
			kind: 'failed',
			reason: `no ${payload.action.type} forwarder is configured`,
		};
		let outcome: ForwardOutcome;
		try {
			if (isEventForward(payload)) {
				// The event's id is its Idempotency-Key, on every attempt.
				outcome = this.events
					? await this.events.send(payload)
					: { kind: 'failed', reason: 'no events forwarder is configured' };
			} else if (isCallbackForward(payload)) {
				// A callback for n8n carries its event key (receipt:<sid>, reply:<sid>) as its identity.
				outcome = this.n8n
					? await this.n8n.send(payload, {
							id: job.id,
							key: job.eventKey,
							actionKey: job.actionKey,
						})
					: unconfigured;
			} else {
				const forwarder = this.forwarders[payload.action.type];
				outcome = forwarder
					? await forwarder.send(payload, {
							id: job.id,
							key: `${forwardMessageSid(payload)}.${job.actionKey}`,
							actionKey: job.actionKey,
						})
					: unconfigured;
			}
		} catch (error) {
			outcome = { kind: 'retry', reason: (error as Error).message };
		}
		if (job.payload.action.type === 'forwardEmail')
			this.emailError = outcome.kind === 'sent' ? undefined : outcome.reason;
		await this.settle(job, outcome);
	}

	/** The last e-mail attempt's error, until one goes through: the SMTP server is failing. */
	get smtpError(): string | undefined {
		return this.emailError;
	}

	/**
	 * Records an attempt's outcome. What was sent must be marked so, or a restart would send
	 * it again: a store that fails here (down, full) is asked again with back-off, the
	 * outcome kept in memory meanwhile, never thrown away.
	 */
	private async settle(job: ForwardJob, outcome: ForwardOutcome): Promise<void> {
		for (let failures = 0; ; failures++) {
			try {
				await this.record(job, outcome);
				if (failures > 0)
					this.log.info(
						'forward outcome recorded after the store came back',
						this.fields(job, { outcome: outcome.kind, failures }),
					);
				return;
			} catch (error) {
				const delay = backoffDelay(failures + 1, STORE_BACKOFF);
				if (failures === 0)
					this.log.error(
						'forward outcome not recorded: the store does not answer; trying again',
						this.fields(job, { outcome: outcome.kind, error: error as Error }),
					);
				await new Promise((r) => setTimeout(r, delay));
			}
		}
	}

	private async record(job: ForwardJob, outcome: ForwardOutcome): Promise<void> {
		const now = Date.now();
		switch (outcome.kind) {
			case 'sent':
				await this.store.markSent(job.id, now);
				this.log.info('forwarded', this.fields(job));
				return;
			case 'failed':
				await this.store.markFailed(job.id, outcome.reason, now);
				this.log.error('forward failed', this.fields(job, { reason: outcome.reason }));
				return;
			case 'uncertain':
				await this.store.markUncertain(job.id, outcome.reason, now);
				this.log.error('forward uncertain', this.fields(job, { reason: outcome.reason }));
				return;
			case 'retry': {
				// The age by the worker's clock: a test moves it past maxAge rather than waiting it out.
				if (isDeadDelivery(job, daemonClock.now(), this.maxAgeMs())) {
					const reason = `failing for longer than events.maxAge; last: ${outcome.reason}`;
					await this.store.markDead(job.id, reason, now);
					this.log.error('delivery dead', this.fields(job, { reason }));
					return;
				}
				if (job.attempts >= this.config.maxAttempts) {
					const reason = `gave up after ${job.attempts} attempts; last: ${outcome.reason}`;
					await this.store.markFailed(job.id, reason, now);
					this.log.error('forward failed', this.fields(job, { reason }));
					return;
				}
				const policy = {
					baseMs: this.config.backoffMs,
					maxMs: this.config.maxBackoffMs,
					maxAttempts: this.config.maxAttempts,
				};
				const delay = Math.max(outcome.retryAfterMs ?? 0, backoffDelay(job.attempts, policy));
				await this.store.retryLater(job.id, now + delay, outcome.reason, now);
				this.log.warn(
					'forward will be retried',
					this.fields(job, { reason: outcome.reason, delayMs: delay }),
				);
				return;
			}
		}
	}

	private fields(job: ForwardJob, extra: Record<string, unknown> = {}): Record<string, unknown> {
		const payload = job.payload as QueuedForward;
		return {
			forward: job.id,
			kind: payload.action.type,
			...(isEventForward(payload)
				? { event: payload.event.id, campaign: payload.event.campaign }
				: isCallbackForward(payload)
					? { event: job.eventKey }
					: { replyMessageSid: forwardMessageSid(payload), campaign: payload.context.campaign }),
			attempts: job.attempts,
			...extra,
		};
	}
}
