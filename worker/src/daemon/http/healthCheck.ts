/** How long one look at the worker's state answers /health and /ready: a balancer polling hard costs the store nothing more. */
const CACHE_MS = 1_000;
/** A store that takes longer than this to count its rows is reported down. */
const PROBE_TIMEOUT_MS = 1_000;

export interface HealthReport {
	/** Whether a callback arriving now would be answered 200 (stored, or spooled). */
	canTakeCallbacks: boolean;
	/** The parts that are degraded, in words: `store down`, `spooling`, `smtp failing`, ... */
	degraded: string[];
	/** Counts, for whoever holds the report token. */
	details: Record<string, unknown>;
}

export interface HealthSources {
	/** The store's own counts; throws or hangs when the store is down. */
	counts(): Promise<Record<string, unknown>>;
	/** What the callback intake knows without asking the store. */
	intake(): {
		storeDown: boolean;
		spooled: number;
		spoolBytes: number;
		spoolMaxBytes: number;
		spoolWritable: boolean;
	};
	/** The last e-mail attempt's error, while the SMTP server keeps failing. */
	smtpError(): string | undefined;
	campaignsRunning(): number;
	/** Receivers of deliveries that have been failing for over an hour (failingDestinations). */
	failingDestinations?(): Promise<string[]>;
}

/**
 * What /health and /ready say, read at most once a second. A fault the worker knows of
 * (the store down or full, the spool filling, SMTP failing) is a degraded part named in
 * the answer, never an error of the health check itself.
 */
export class HealthCheck {
	private cached: { at: number; report: Promise<HealthReport> } | undefined;

	constructor(private readonly sources: HealthSources) {}

	report(): Promise<HealthReport> {
		const now = Date.now();
		if (!this.cached || now - this.cached.at >= CACHE_MS)
			this.cached = { at: now, report: this.look() };
		return this.cached.report;
	}

	private async look(): Promise<HealthReport> {
		const degraded: string[] = [];
		let counts: Record<string, unknown> = {};
		let storeError: string | undefined;
		try {
			counts = await withTimeout(this.sources.counts(), PROBE_TIMEOUT_MS);
		} catch (error) {
			storeError = (error as Error).message;
		}
		const intake = this.sources.intake();
		if (storeError !== undefined || intake.storeDown) degraded.push('store down');
		if (intake.spooled > 0) degraded.push('spooling');
		if (!intake.spoolWritable) degraded.push('no spool');
		const spoolFull = intake.spoolWritable && intake.spoolMaxBytes - intake.spoolBytes < 4096;
		if (spoolFull) degraded.push('spool full');
		const smtpError = this.sources.smtpError();
		if (smtpError !== undefined) degraded.push('smtp failing');
		const storeUp = storeError === undefined && !intake.storeDown;
		let failing: string[] = [];
		if (storeUp && this.sources.failingDestinations)
			failing = await withTimeout(this.sources.failingDestinations(), PROBE_TIMEOUT_MS).catch(
				() => [],
			);
		if (failing.length > 0)
			degraded.push(`deliveries failing for over an hour: ${failing.join(', ')}`);
		return {
			canTakeCallbacks: storeUp || (intake.spoolWritable && !spoolFull),
			degraded,
			details: {
				store: storeUp ? { up: true } : { up: false, error: storeError ?? 'the last write failed' },
				spool: { events: intake.spooled, bytes: intake.spoolBytes, maxBytes: intake.spoolMaxBytes },
				...(smtpError !== undefined ? { smtp: { failing: true, lastError: smtpError } } : {}),
				campaignsRunning: this.sources.campaignsRunning(),
				...counts,
			},
		};
	}
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	// A probe that settles after its timeout must not be an unhandled rejection.
	work.catch(() => undefined);
	return Promise.race([
		work,
		new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
		}),
	]).finally(() => clearTimeout(timer));
}
