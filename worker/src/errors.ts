import { BATCH_MAX_MESSAGES } from '../../api';

/**
 * The worker's error catalogue, at the bottom of worker/src: every folder may import it,
 * it imports nothing of it. The engine names a setting at fault by its setting (`rate`), and
 * each front end names it the way its user wrote it: the CLI by its flag (`--rate`), the
 * worker daemon by the config path (`campaigns[2].rate`).
 */

/** Stops the run with a message for a person and a non-zero exit; never loses accepted work. */
export class FatalError extends Error {
	constructor(
		message: string,
		readonly exitCode = 1,
		/** `cause`: what went wrong underneath, for code that tells a store's fault from a mistake. */
		options?: ErrorOptions,
	) {
		super(message, options);
	}
}

/** Another live process holds the campaign's run: a second would race it (the daemon waits, the CLI stops). */
export class RunHeldError extends FatalError {
	constructor(
		readonly campaign: string,
		readonly owner: { pid: number; host: string },
	) {
		super(
			`campaign ${campaign} is already running (pid ${owner.pid} on ${owner.host}); a second run would race it`,
		);
	}
}

/** Bad flags or arguments: exit 2, with the usage hint. */
export class UsageError extends FatalError {
	constructor(message: string, exitCode = 2) {
		super(message, exitCode);
	}
}

/** The campaign's settings, by the flag `cloudtel campaign run` takes each from. */
export const SETTING_FLAG = {
	name: '--name',
	csvPath: '--csv',
	propertySid: '--property',
	text: '--text',
	from: '--from',
	toColumn: '--to-column',
	defaultCountry: '--default-country',
	timeZone: '--time-zone',
	timeZoneColumn: '--time-zone-column',
	sendWindow: '--send-window',
	schedule: '--schedule',
	delimiter: '--delimiter',
	encoding: '--encoding',
	smartEncoding: '--smart-encoding',
	linkBase: '--link-base',
	consentColumn: '--consent-column',
	consentAtColumn: '--consent-at-column',
	requireConsent: '--require-consent',
	variants: '--variant',
	testShare: '--test-share',
	winnerBy: '--winner-by',
	decideAfter: '--decide-after',
	winner: '--winner',
	rate: '--rate',
	batchSize: '--batch-size',
	concurrency: '--concurrency',
	replyUrl: '--reply-url',
	receipts: '--receipt-url',
	maxCost: '--max-cost',
	dailyMaxCost: '--daily-max-cost',
	countries: '--countries',
	allowLandlines: '--allow-landlines',
	maxFailureRate: '--max-failure-rate',
	frequencyCap: '--frequency-cap',
} as const;

export type Setting = keyof typeof SETTING_FLAG;

/**
 * One setting that cannot be used. Its message names the flag (the CLI shows it as it is);
 * the daemon renders `setting` and `detail` by config path instead (see `settingProblem`).
 * `flagMessage` is for a message that reads differently when it names the flag itself;
 * `exitCode` 1 for a setting the provider refused rather than one given wrong.
 */
export class SettingError extends UsageError {
	constructor(
		readonly setting: Setting,
		readonly detail: string,
		flagMessage = `${SETTING_FLAG[setting]}: ${detail}`,
		exitCode = 2,
	) {
		super(flagMessage, exitCode);
	}
}

/** The run's settings when neither a flag nor the config gives them. */
export const RUN_DEFAULTS = {
	/** Messages per second. */
	rate: 100,
	/** Messages per request: the provider's most. */
	batchSize: BATCH_MAX_MESSAGES,
	/** Requests in flight at once. */
	concurrency: 4,
} as const;

/** A run whose owner has not beaten its heartbeat for this long is taken for dead. */
export const STALE_OWNER_MS = 15_000;
