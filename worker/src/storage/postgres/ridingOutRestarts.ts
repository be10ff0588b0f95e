import { FatalError } from '../../errors';
import type { Ledger } from '../ledger';
import type { SharedLedger } from '../sharedLedger';
import { lostConnection } from './pgDatabase';
import type { PgLedger } from './pgLedger';

/** How long a campaign run waits for its Postgres to come back before it stops (resumable); the environment may shorten it, for a test. */
export const DB_OUTAGE_LIMIT_MS =
	Number(process.env.CLOUDTEL_DB_OUTAGE_LIMIT_MS) > 0
		? Number(process.env.CLOUDTEL_DB_OUTAGE_LIMIT_MS)
		: 120_000;
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

type RunLedger = Ledger & SharedLedger;
/** The ledger's calls, not its parts (such as `variants`, a store of its own). */
type Method = {
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	[K in keyof RunLedger]: RunLedger[K] extends (...args: any[]) => unknown ? K : never;
}[keyof RunLedger];
type Call<K extends Method> = (...args: Parameters<RunLedger[K]>) => ReturnType<RunLedger[K]>;

/**
 * A Postgres ledger that rides out a restart of its database: a call that fails because
 * the connection went away (the server restarting, an administrator's command, a refused
 * connection) is made again, with back-off, once the database answers, for up to
 * DB_OUTAGE_LIMIT_MS; after that it fails with one line saying so. Each of the ledger's
 * calls is one transaction, so one that failed on a lost connection wrote nothing and is
 * safe to make again. Sending waits meanwhile, so a chunk whose mark could not be written
 * sends nothing and stays pending, never uncertain. Iterators are not retried: they read,
 * and are read again by a resumed run.
 */
export class RidingOutRestarts implements RunLedger {
	readonly activitySpan = this.retried('activitySpan');
	readonly addSuppression = this.retried('addSuppression');
	readonly callbacksStamps = this.retried('callbacksStamps');
	readonly campaign = this.retried('campaign');
	readonly campaignNames = this.retried('campaignNames');
	readonly dashboardCampaigns = this.retried('dashboardCampaigns');
	readonly dashboardFigures = this.retried('dashboardFigures');
	readonly cancelPending = this.retried('cancelPending');
	readonly claim = this.retried('claim');
	readonly close = this.retried('close');
	readonly contactHistory = this.retried('contactHistory');
	readonly counts = this.retried('counts');
	readonly createCampaign = this.retried('createCampaign');
	readonly deleteCampaign = this.retried('deleteCampaign');
	readonly delivery = this.retried('delivery');
	readonly deliveryCounts = this.retried('deliveryCounts');
	readonly dropCallbacksStamp = this.retried('dropCallbacksStamp');
	readonly forgetContact = this.retried('forgetContact');
	readonly heartbeat = this.retried('heartbeat');
	readonly importBatch = this.retried('importBatch');
	readonly isSuppressed = this.retried('isSuppressed');
	readonly markSubmitting = this.retried('markSubmitting');
	readonly markSubmittingCommitted = this.retried('markSubmittingCommitted');
	readonly markSuppressed = this.retried('markSuppressed');
	readonly peekPending = this.retried('peekPending');
	readonly recordDelivery = this.retried('recordDelivery');
	readonly recordReply = this.retried('recordReply');
	readonly recoverSubmitting = this.retried('recoverSubmitting');
	readonly release = this.retried('release');
	readonly removeSuppression = this.retried('removeSuppression');
	readonly retryableRows = this.retried('retryableRows');
	readonly suppressPermanentFailure = this.retried('suppressPermanentFailure');
	readonly liftPermanentFailure = this.retried('liftPermanentFailure');
	readonly reportFigures = this.retried('reportFigures');
	readonly requeueUncertain = this.retried('requeueUncertain');
	readonly requeueUncertainWith = this.retried('requeueUncertainWith');
	readonly sentTo = this.retried('sentTo');
	readonly setPaused = this.retried('setPaused');
	readonly setPhase = this.retried('setPhase');
	readonly settle = this.retried('settle');
	readonly stampCallbacksIn = this.retried('stampCallbacksIn');
	readonly suppressedAmong = this.retried('suppressedAmong');
	readonly claimChunk = this.retried('claimChunk');
	readonly pace = this.retried('pace');
	readonly submissionsInFlight = this.retried('submissionsInFlight');
	readonly pendingReviews = this.retried('pendingReviews');
	readonly recordConsent = this.retried('recordConsent');
	readonly lastConsent = this.retried('lastConsent');
	readonly consentedAmong = this.retried('consentedAmong');
	readonly evidence = this.passed('evidence');
	readonly campaignOptOuts = this.retried('campaignOptOuts');
	readonly spent = this.retried('spent');
	readonly reserveSpend = this.retried('reserveSpend');
	readonly releaseSpend = this.retried('releaseSpend');
	readonly latestOutcomes = this.retried('latestOutcomes');
	readonly markOutcomesSeen = this.retried('markOutcomesSeen');
	readonly cappedAmong = this.retried('cappedAmong');
	readonly rows = this.passed('rows');
	readonly campaignNumbers = this.passed('campaignNumbers');
	readonly suppressions = this.passed('suppressions');

	/** Variant decisions go straight to the ledger's own store: a lost connection fails the run, which resumes (its decision is made once). */
	get variants(): RunLedger['variants'] {
		return this.ledger.variants;
	}

	constructor(
		private readonly ledger: PgLedger,
		private readonly onRetry: (waitingMs: number, error: Error) => void,
		private readonly limitMs = DB_OUTAGE_LIMIT_MS,
	) {}

	private retried<K extends Method>(name: K): Call<K> {
		return ((...args: unknown[]) => {
			const method = this.ledger[name] as (...a: unknown[]) => Promise<unknown>;
			const call = () => method.apply(this.ledger, args);
			return call().catch((error: unknown) =>
				lostConnection(error)
					? retry(call, error as Error, this.onRetry, this.limitMs)
					: Promise.reject(error),
			);
		}) as unknown as Call<K>;
	}

	private passed<K extends Method>(name: K): Call<K> {
		return ((...args: unknown[]) =>
			(this.ledger[name] as (...a: unknown[]) => unknown).apply(this.ledger, args)) as Call<K>;
	}
}

async function retry(
	call: () => Promise<unknown>,
	firstError: Error,
	onRetry: (waitingMs: number, error: Error) => void,
	limitMs: number,
): Promise<unknown> {
	const started = Date.now();
	let delay = FIRST_RETRY_MS;
	let last = firstError;
	for (;;) {
		onRetry(Date.now() - started, last);
		await new Promise((r) => setTimeout(r, delay));
		delay = Math.min(MAX_RETRY_MS, delay * 2);
		try {
			return await call();
		} catch (error) {
			if (!lostConnection(error)) throw error;
			last = error as Error;
			if (Date.now() - started >= limitMs) {
				throw new FatalError(
					`Postgres did not answer for ${Math.round(limitMs / 1000)} s (${last.message.split('\n')[0]}); the rows not sent stay pending: run the same command again to resume`,
					1,
					{ cause: error },
				);
			}
		}
	}
}
