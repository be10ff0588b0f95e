import {
	checkMaxFailureRate,
	DEFAULT_MAX_FAILURE_RATE,
	FailureRateBrake,
} from './failureRateBrake';
import { randomUUID } from 'node:crypto';
import { hostname, availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import {
	BATCH_MAX_MESSAGES,
	checkSchedule as checkScheduleRule,
	ErrorCodes,
	isBlank,
	RUN_NAME_PATTERN,
	RUN_NAME_RULE,
	validateSendMessage,
} from '../../../api';
import { openCsv, STDIN, type CsvSource } from '../csv/openCsv';
import {
	FINAL_STATUSES,
	ROW_STATUSES,
	sentRows,
	type CampaignRecord,
	type Ledger,
	type RowStatus,
	type RunOwner,
} from '../storage/ledger';
import { ownerIsAlive } from '../storage/ownerIsAlive';
import { DEFAULT_BACKOFF } from '../pacing/backoff';
import { TokenBucket } from '../pacing/tokenBucket';
import { BatchClient, type ProviderConfig } from '../provider/batchClient';
import { NEVER_SENT_LOST_MESSAGES } from '../provider/neverSent';
import { checkOutPath, OutFile, outRecordOf } from './outFile';
import type { Reporter } from './reporter';
import { NumberSet } from '../rows/numberSet';
import { SuppressionList } from '../rows/suppressionList';
import { PhoneNormalizer } from '../rows/phoneNormalizer';
import { createRowJudge } from '../rows/rowJudge';
import type { RowRules } from '../rows/rowRules';
import { waitUntil, type Timing } from '../schedule/sendTime';
import { specConflicts, type CampaignSpec } from '../settings/campaignSpec';
import type { CampaignSummary, RowProblem, StopReason } from './campaignSummary';
import { campaignTiming } from './campaignTiming';
import type { ChunkSource } from './chunkSource';
import { mapColumns } from './csvColumns';
import { DryRunSink } from './dryRunSink';
import { unregisteredSenderId } from './senderIdRegister';
import { inputChange } from './inputCheck';
import { ExitCodes } from './exitCodes';
import {
	FatalError,
	RunHeldError,
	SETTING_FLAG,
	SettingError,
	STALE_OWNER_MS,
	UsageError,
} from '../errors';
import { isStoreFault } from '../storage/storeFault';
import { consentColumns, LedgerSink } from './ledgerSink';
import { localChunks } from './localChunks';
import { readStage, type RowSink } from './readStage';
import { refusal, unreachable } from './sendChunk';
import { sendStage } from './sendStage';
import { sleep } from './sleep';
import { frequencyCapCheck, frequencyCapOf } from './frequencyCap';
import { checkSpendCap, dayKey, SpendCap, SpendFit } from './spendCap';
import { DAY_KEY, SPEND_KEY } from '../storage/guardSql';
import { checkVariantSettings, variantSettings } from '../settings/variantSettings';
import { createVariantJudge } from '../rows/variantJudge';
import { VariantSink } from './variantSink';
import { variantForecasts } from './variantForecasts';
import { variantStep } from './variantStage';

export interface RunCampaignOptions {
	/** The campaign as given; on a resume, omitted keys come from the ledger. */
	spec: Partial<CampaignSpec> & { name: string };
	provider?: ProviderConfig;
	/** Messages per second; 0 for no limit of our own. */
	rate: number;
	batchSize: number;
	concurrency: number;
	dryRun?: boolean;
	resendUncertain?: boolean;
	outPath?: string;
	/** Worker threads for row validation; undefined picks by file size. */
	threads?: number;
	/** Retries of a batch after a 5xx or a failed connection (429s have their own, larger limit). */
	retries?: number;
	/** Alphanumeric sender IDs registered (Australia's Sender ID Register): a dry run warns of any other. */
	registeredSenderIds?: readonly string[];
	/** A dry run's price of one segment, for its cost; with `maxCost`, the spend cap's. */
	pricePerSegment?: number;
	/** --max-cost: the most the campaign may spend, counted before each message leaves (spendCap.ts). */
	maxCost?: number;
	/** --max-failure-rate: the share of failed outcomes that pauses the campaign (default 0.3; 0 never). */
	maxFailureRate?: number;
	/** --frequency-cap N/PERIOD: a row whose number had N messages within PERIOD (any campaign) ends capped. */
	frequencyCap?: string;
	/** --daily-max-cost (limits.dailyMaxCost): the most a day may spend across the ledger's campaigns. */
	dailyMaxCost?: number;
	/** The zone whose midnight starts the day of `dailyMaxCost` (limits.timeZone); else the campaign's, else UTC. */
	dailyTimeZone?: string;
	/** Receipt and reply webhooks every message carries (the worker daemon's). */
	callbacks?: Parameters<typeof sendStage>[0]['callbacks'];
	/**
	 * A run found paused at its start waits for `campaign resume` (the worker's cron runs,
	 * taken up after a restart) instead of stopping at once, as `campaign run` does.
	 */
	waitWhilePaused?: boolean;
	/** `--winner N`: a variant campaign's winner, chosen by hand (1 is --text). */
	winner?: number;
	/** The clock (Unix ms) a variant decision is timed by; a test's own. */
	now?: () => number;
	/** The worker's runs wait for a variant decision and go on; `campaign run` stops (exit 4) instead. */
	waitForVariantDecision?: boolean;
	/** The worker's runs paused by the daily spend cap wait for the next day (by `now`) and go on; `campaign run` stops (exit 4). */
	waitForNextDay?: boolean;
}

export interface RunCampaignDeps {
	/** Required for a run; a dry run uses it only for the suppression list. */
	ledger?: Ledger;
	reporter: Reporter;
	signal?: AbortSignal;
	/**
	 * Where the run's chunks come from, chosen where the ledger was opened: local chunks
	 * (one process sends the run, the default), or chunks claimed by several processes
	 * sending it together; then one of them imports the CSV while the others wait.
	 */
	chunks?: ChunkSource;
	/**
	 * The rows, when they are no file (an API campaign's pages): `spec.csvPath` is then their
	 * label, never opened, and is no setting of the campaign.
	 */
	input?: () => Promise<CsvSource>;
}

const HEARTBEAT_MS = 2_000;
/** How often a worker waiting for another's import looks again. */
const JOIN_POLL_MS = 500;
/** Files smaller than this are judged on the main thread: starting threads costs more. */
const THREADS_FROM_BYTES = 4 * 1024 * 1024;

/**
 * The campaign engine, in four stages: read -> validate (CSV rows judged and stored as
 * pending, invalid, duplicate or suppressed), send (paced batches), settle (the answers
 * stored, --out and the summary). The CLI and the cron daemon both call this.
 */
export async function runCampaign(
	options: RunCampaignOptions,
	deps: RunCampaignDeps,
): Promise<CampaignSummary> {
	checkSettings(options);
	if (options.outPath !== undefined) await checkOutPath(options.outPath);
	const started = performance.now();
	const { ledger, reporter } = deps;
	const name = options.spec.name;
	const stored = ledger ? await ledger.campaign(name) : undefined;
	const { spec, replaces } = await resolveSpec(options, stored, ledger, deps.input !== undefined);
	const timing = campaignTiming(spec);
	if (!stored || replaces) checkSchedule(spec.schedule);
	checkFrom(spec.from);
	if (options.callbacks?.WebhookUri !== undefined && !isBlank(spec.from))
		throw new SettingError(
			'replyUrl',
			`needs a leased sender: the provider calls back replies only to messages sent without --from (campaign ${name} sends from ${spec.from})`,
			`--reply-url needs a leased sender: the provider calls back replies only to messages sent without --from (campaign ${name} sends from ${spec.from})`,
		);
	if (options.dryRun) return dryRun(spec, options, deps, started);
	if (!ledger) throw new UsageError('a run needs a ledger (--db)');
	if (!options.provider)
		throw new UsageError(
			'a run needs the provider: set CLOUDTEL_BASE_URL, CLOUDTEL_ACCOUNT_SID and CLOUDTEL_AUTH_TOKEN',
		);

	// Rows given cannot change once the campaign started (an API campaign's pages are fixed
	// at its start, and contact forget blanks in place): a resume skips the lines imported.
	const restart =
		stored && !replaces && !deps.input ? await checkInput(spec, stored, ledger) : undefined;
	const client = new BatchClient(options.provider, options.concurrency);
	const owner: RunOwner = { pid: process.pid, host: hostname(), token: randomUUID() };
	let claimed = false;
	let heartbeat: NodeJS.Timeout | undefined;
	try {
		// Before the campaign is created: a wrong --property must not become part of it.
		await preflight(client, spec.propertySid);
		if (replaces) {
			await ledger.deleteCampaign(name);
			reporter.event(
				'replaced',
				{ campaign: name, changed: replaces },
				`campaign ${name} had sent nothing: it starts again with the new settings (${replaces.join('; ')})`,
			);
		}
		if (restart) {
			await ledger.deleteCampaign(name);
			reporter.event(
				'reimport',
				{ campaign: name, change: restart },
				`${restart}; campaign ${name} had sent nothing: its import starts again from the first line`,
			);
		}
		const kept = stored !== undefined && !replaces && !restart;
		// An API campaign's start made it, its import not begun: this run is its first.
		const resumed = kept && (stored.phase !== 'importing' || stored.importedThrough > 0);
		let record = kept
			? stored
			: await ledger.createCampaign(
					options.callbacks?.DeliveryReceiptWebhookUri !== undefined
						? { ...spec, receipts: true }
						: spec,
				);
		const other = await ledger.claim(name, owner, STALE_OWNER_MS);
		if (other && !deps.chunks?.together) throw new RunHeldError(name, other);
		if (other) {
			const joined = await joinRun(ledger, name, owner, deps.signal);
			record = joined.record;
			claimed = joined.claimed;
		} else claimed = true;
		if (claimed) {
			heartbeat = setInterval(
				() => void ledger.heartbeat(name, owner).catch(() => undefined),
				HEARTBEAT_MS,
			);
			heartbeat.unref();
		}
		reporter.event(
			'start',
			{
				campaign: name,
				csv: spec.csvPath,
				property: spec.propertySid,
				resumed,
				phase: record.phase,
			},
			`${resumed ? 'resuming' : 'starting'} campaign ${name} (${spec.csvPath})`,
		);
		const stop = await stages(spec, timing, record, options, deps, ledger, client);
		return await settleStage(spec, options, deps, ledger, stop, started);
	} finally {
		if (heartbeat) clearInterval(heartbeat);
		if (claimed) await ledger.release(name, owner).catch(() => undefined);
		await client.close().catch(() => undefined);
	}
}

/**
 * A worker joining a run another worker holds: it waits while that one imports the CSV,
 * and takes the import over if that one dies (its heartbeat stops) before the end.
 */
async function joinRun(
	ledger: Ledger,
	name: string,
	owner: RunOwner,
	signal?: AbortSignal,
): Promise<{ record: CampaignRecord; claimed: boolean }> {
	for (;;) {
		const record = (await ledger.campaign(name))!;
		if (record.phase !== 'importing' || signal?.aborted) return { record, claimed: false };
		if ((await ledger.claim(name, owner, STALE_OWNER_MS)) === undefined)
			return { record: (await ledger.campaign(name))!, claimed: true };
		await sleep(JOIN_POLL_MS, signal);
	}
}

function checkSettings(options: RunCampaignOptions): void {
	checkSpendCap(options.maxCost, options.pricePerSegment);
	checkSpendCap(options.dailyMaxCost, options.pricePerSegment, 'dailyMaxCost');
	checkMaxFailureRate(options.maxFailureRate);
	frequencyCapOf(options.frequencyCap);
	if (options.spec.text !== undefined && options.spec.text.trim() === '')
		throw new SettingError(
			'text',
			'is empty: give the message to send, such as "Hi {{Name}}"',
			'--text is empty: give the message to send, such as --text "Hi {{Name}}"',
		);
	checkVariantSettings(options.spec);
	// Throws a SettingError naming the setting.
	if (options.spec.defaultCountry !== undefined) new PhoneNormalizer(options.spec.defaultCountry);
	if (!RUN_NAME_PATTERN.test(options.spec.name))
		throw setting(
			'name',
			`${RUN_NAME_RULE}: it goes into every ExternalId (got "${options.spec.name}")`,
		);
	if (!(options.rate >= 0))
		throw setting(
			'rate',
			`must be a number of messages per second, 0 for no limit (got ${options.rate})`,
		);
	if (
		!Number.isInteger(options.batchSize) ||
		options.batchSize < 1 ||
		options.batchSize > BATCH_MAX_MESSAGES
	)
		throw setting('batchSize', `must be 1 to ${BATCH_MAX_MESSAGES} (got ${options.batchSize})`);
	if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 64)
		throw setting('concurrency', `must be 1 to 64 (got ${options.concurrency})`);
}

/** The CLI's words for these have always been `--rate must be ...`, without a colon. */
function setting(
	name: 'name' | 'rate' | 'batchSize' | 'concurrency',
	detail: string,
): SettingError {
	return new SettingError(name, detail, `${SETTING_FLAG[name]} ${detail}`);
}

/**
 * The campaign to run: the stored one, resumed, or a new one. Settings that differ from the
 * stored ones are refused once something was sent (a resume must send what the first run
 * would have); before that, the campaign simply starts again with them (`replaces`).
 */
async function resolveSpec(
	options: RunCampaignOptions,
	stored: CampaignRecord | undefined,
	ledger: Ledger | undefined,
	labelled: boolean,
): Promise<{ spec: CampaignSpec; replaces?: string[] }> {
	const name = options.spec.name;
	const csvPath = options.spec.csvPath;
	const given = {
		...options.spec,
		csvPath: csvPath === undefined || csvPath === STDIN || labelled ? csvPath : resolve(csvPath),
	};
	if (stored) {
		// A label is no setting: an older worker stored the path of the CSV it wrote from the pages.
		const conflicts = specConflicts(
			stored.spec,
			labelled ? { ...given, csvPath: undefined } : given,
		);
		if (conflicts.length === 0) return { spec: stored.spec };
		const sent = ledger ? sentRows((await ledger.counts(name)).rows) : 0;
		if (sent > 0) {
			throw new UsageError(
				`campaign ${name} already exists in this ledger with other settings, and has sent ${sent} messages: ${conflicts.join('; ')}. Run it again without them to resume it, pick a new --name, or forget it with \`cloudtel campaign delete --force\``,
			);
		}
		if (stored.owner && ownerIsAlive(stored.owner, STALE_OWNER_MS))
			throw new RunHeldError(name, stored.owner);
		const changed = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
		return { spec: { ...stored.spec, ...changed }, replaces: conflicts };
	}
	const missing = [
		given.csvPath === undefined && '--csv',
		given.text === undefined && '--text',
		!options.dryRun && given.propertySid === undefined && '--property',
	].filter(Boolean);
	if (missing.length > 0) throw new UsageError(`a new campaign needs ${missing.join(', ')}`);
	return { spec: { ...given, propertySid: given.propertySid ?? '' } as CampaignSpec };
}

/**
 * A resume reads the CSV again from its first line and skips the lines already imported:
 * an edited file would shift rows under that mark, and people would be skipped or sent
 * twice. So what the import read is compared first. Changed, a campaign that has sent
 * nothing imports again; one that has sent is refused. Returns why it imports again.
 * Standard input cannot be compared before it is read: an import under way reads it anew.
 */
async function checkInput(
	spec: CampaignSpec,
	stored: CampaignRecord,
	ledger: Ledger,
): Promise<string | undefined> {
	if (stored.phase === 'importing' && spec.csvPath === STDIN && stored.importedThrough > 0)
		return 'standard input cannot be compared with what the import read before';
	if (!stored.input) return undefined;
	const change = await inputChange(spec.csvPath, stored.input);
	if (change === undefined) return undefined;
	const name = spec.name;
	const sent = sentRows((await ledger.counts(name)).rows);
	if (sent > 0) {
		throw new FatalError(
			`campaign ${name}: ${change}, and ${sent.toLocaleString('en-US')} messages were sent from it: restore the file as it was to resume, or forget the campaign with \`cloudtel campaign delete --force --name ${name}\` and start anew`,
		);
	}
	if (stored.owner && ownerIsAlive(stored.owner, STALE_OWNER_MS))
		throw new RunHeldError(name, stored.owner);
	if (spec.csvPath === STDIN) {
		// Its first bytes are read now: the import could not start from them. Nothing was sent.
		await ledger.deleteCampaign(name);
		throw new FatalError(
			`campaign ${name}: ${change}; nothing was sent, so its rows are forgotten: run the same command again to import it anew`,
		);
	}
	return change;
}

/**
 * The provider refuses a Schedule an hour or more in the past, and one just under would send
 * at once: a mistyped year must not send paid messages now. A resume keeps the stored time,
 * which may have passed meanwhile. Beyond 14 days ahead the worker waits itself.
 */
function checkSchedule(schedule: number | undefined): void {
	if (schedule === undefined) return;
	const bad = checkScheduleRule('--schedule', schedule, Math.floor(Date.now() / 1000));
	if (bad?.ErrorCode !== ErrorCodes.ScheduleInPast) return;
	// The rule's words after the field it names: `is an hour or more in the past`.
	const past = `${bad.Message.replace(/^--schedule /, '').replace(/\.$/, '')} (${new Date(schedule * 1000).toISOString()}): give a time to come`;
	throw new SettingError(
		'schedule',
		`${past}, or leave it out to send now`,
		`--schedule ${past}, or leave --schedule out to send now`,
	);
}

/** A bad --from would fail every row: say so once, before reading anything. */
function checkFrom(from: string | undefined): void {
	if (from === undefined) return;
	const bad = validateSendMessage(
		{ From: from, To: '+61491570156', Text: 'x' },
		{ now: Math.floor(Date.now() / 1000) },
	).filter((v) => v.FieldName === 'From');
	if (bad.length > 0) throw new SettingError('from', bad[0].Message);
}

/**
 * An empty batch sends nothing, yet shows bad credentials (401), an unknown property (404)
 * or a wrong address at once. Only an answer from the provider lets the run go on: sending
 * to an address that has not answered would turn every row uncertain.
 */
async function preflight(client: BatchClient, propertySid: string): Promise<void> {
	for (let attempt = 1; attempt <= 5; attempt++) {
		const outcome = await client.send(propertySid, []);
		if (
			outcome.kind === 'refused' &&
			(outcome.status === 401 || outcome.status === 403 || outcome.status === 404)
		)
			throw refusal(outcome.status, outcome.detail, propertySid);
		if (outcome.kind === 'answered' || outcome.kind === 'refused') return;
		if (outcome.kind === 'unsent') throw unreachable(outcome.reason);
		if (outcome.kind === 'lost')
			throw new FatalError(
				`the provider did not answer a test request (${outcome.reason}); nothing was sent: check --base-url (CLOUDTEL_BASE_URL), then run again`,
			);
		if (attempt === 5) {
			if (outcome.status === 0) throw unreachable(outcome.reason);
			return;
		}
		await sleep(outcome.retryAfterMs ?? 200 * attempt);
	}
}

function threadsFor(options: RunCampaignOptions, csv: CsvSource): number {
	if (options.threads !== undefined) return options.threads;
	// One core reads the CSV, the others validate: a validator thread per core would leave
	// the reader fighting for one, and each thread costs ~50 MB of its own heap.
	return csv.size >= THREADS_FROM_BYTES ? Math.max(1, Math.min(4, availableParallelism() - 1)) : 0;
}

async function prepareRead(
	spec: CampaignSpec,
	options: RunCampaignOptions,
	deps: RunCampaignDeps,
	timing: Timing,
	wantText: boolean,
) {
	const csv = deps.input
		? await deps.input()
		: await openCsv(spec.csvPath, {
				delimiter: spec.delimiter,
				encoding: spec.encoding,
				hash: !options.dryRun,
			});
	const columns = mapColumns(csv.header, spec);
	const rules: RowRules = {
		campaign: spec.name,
		header: csv.header,
		toIndex: columns.toIndex,
		text: spec.text,
		from: spec.from,
		defaultCountry: spec.defaultCountry,
		timeZoneIndex: columns.timeZoneIndex,
		defaultTimeZone: timing.timeZone,
		wantText,
		smartEncoding: spec.smartEncoding,
		linkBase: spec.linkBase,
		countries: spec.countries,
		allowLandlines: spec.allowLandlines,
	};
	const threads = threadsFor(options, csv);
	const texts = variantSettings(spec)?.texts;
	const judge = texts ? createVariantJudge(rules, texts, threads) : createRowJudge(rules, threads);
	return { csv, rules, threads, columns, judge };
}

async function loadNumbers(source: AsyncIterable<string> | undefined): Promise<NumberSet> {
	const set = new NumberSet();
	if (source) for await (const n of source) set.add(n);
	return set;
}

/** A read of the CSV: into the ledger (importing), or to count and preview (a dry run). */
interface Read {
	spec: CampaignSpec;
	options: RunCampaignOptions;
	deps: RunCampaignDeps;
	timing: Timing;
	sink: (rules: RowRules) => RowSink;
	/** Lines already imported by an earlier start, and the numbers they hold. */
	importedThrough: number;
	seen: NumberSet;
	/** Texts cross from the validator threads only when the sink keeps them. */
	wantText: boolean;
}

async function runRead({
	spec,
	options,
	deps,
	timing,
	sink,
	importedThrough,
	seen,
	wantText,
}: Read) {
	const { csv, rules, threads, columns, judge } = await prepareRead(
		spec,
		options,
		deps,
		timing,
		wantText,
	);
	const plan = variantSettings(spec);
	const testRowsBefore =
		plan && importedThrough > 0 && deps.ledger ? await deps.ledger.variants.testRows(spec.name) : 0;
	const inner = sink(rules);
	const theSink = plan
		? new VariantSink(inner, spec.name, plan.texts, plan.testShare, testRowsBefore, !options.dryRun)
		: inner;
	try {
		const suppressed = await SuppressionList.load(deps.ledger?.suppressions());
		const toColumn = csv.header[columns.toIndex];
		const picked =
			columns.guessed !== undefined
				? `, numbers from column ${toColumn} (no --to-column given)`
				: '';
		deps.reporter.event(
			'read',
			{
				csv: spec.csvPath,
				delimiter: csv.delimiter,
				columns: csv.header,
				toColumn,
				toColumnGuessed: columns.guessed !== undefined,
				threads,
			},
			`reading ${spec.csvPath} (${csv.header.length} columns, delimiter ${JSON.stringify(csv.delimiter)}${picked})`,
		);
		const result = await readStage({
			csv,
			judge,
			sink: theSink,
			importedThrough,
			seen,
			suppressed,
			inFlight: threads > 0 ? threads * 2 : 1,
			reporter: deps.reporter,
			signal: deps.signal,
			now: () => Math.floor(Date.now() / 1000),
		});
		return {
			...result,
			sink: inner,
			variants: theSink instanceof VariantSink ? theSink : undefined,
		};
	} finally {
		await judge.close();
	}
}

async function dryRun(
	spec: CampaignSpec,
	options: RunCampaignOptions,
	deps: RunCampaignDeps,
	started: number,
): Promise<CampaignSummary> {
	const out = options.outPath ? new OutFile(options.outPath, true) : undefined;
	try {
		const timing = campaignTiming(spec);
		// Texts cross from the validator threads only for --out, which writes each one.
		const result = await runRead({
			spec,
			options,
			deps,
			timing,
			sink: (rules) =>
				new DryRunSink(
					rules,
					out,
					() => Math.floor(Date.now() / 1000),
					spendFitOf(options),
					variantSettings(spec)?.texts,
					deps.ledger && options.frequencyCap !== undefined
						? frequencyCapCheck(deps.ledger, spec.name, options.frequencyCap)
						: undefined,
				),
			importedThrough: 0,
			seen: new NumberSet(),
			wantText: out !== undefined,
		});
		const sink = result.sink as DryRunSink;
		const total = ROW_STATUSES.reduce((n, s) => n + sink.rows[s], 0);
		const forecast = sink.tally.forecast({
			pricePerSegment: options.pricePerSegment,
			rate: options.rate,
			timing,
			now: Math.floor(Date.now() / 1000),
		});
		const senderId = unregisteredSenderId(
			spec.from,
			options.registeredSenderIds,
			forecast.countries,
		);
		const summary: CampaignSummary = {
			campaign: spec.name,
			dryRun: true,
			stop: result.interrupted ? 'interrupted' : 'finished',
			rows: sink.rows,
			total,
			segments: sink.segments,
			seconds: (performance.now() - started) / 1000,
			firstErrors: result.firstErrors,
			uncertainLines: [],
			preview: sink.preview,
			forecast: {
				...forecast,
				...(senderId ? { senderId } : {}),
				...(sink.spendFit ? { spendCap: sink.spendFit.result() } : {}),
				...sink.refused.result(),
			},
			exitCode: result.interrupted ? ExitCodes.Interrupted : ExitCodes.Finished,
		};
		if (result.variants)
			summary.variants = variantForecasts(
				result.variants.forecast,
				sink.samples,
				options.pricePerSegment,
			);
		deps.reporter.summary(summary);
		return summary;
	} finally {
		await out?.close();
	}
}

async function stages(
	spec: CampaignSpec,
	timing: Timing,
	record: CampaignRecord,
	options: RunCampaignOptions,
	deps: RunCampaignDeps,
	ledger: Ledger,
	client: BatchClient,
): Promise<StagesOutcome> {
	const { reporter, signal } = deps;
	const name = spec.name;
	if (record.phase === 'cancelled') return { stop: 'cancelled' };
	// Running it again is how a campaign its spend cap paused goes on (with a higher cap).
	if (record.paused && record.pausedBy && record.pausedBy.by !== 'failure-rate')
		await ledger.setPaused(name, false);
	else if (record.paused && !options.waitWhilePaused) return { stop: 'paused' };

	if (record.phase === 'importing') {
		const seen = await loadNumbers(
			record.importedThrough > 0 ? ledger.campaignNumbers(name) : undefined,
		);
		const read = await runRead({
			spec,
			options,
			deps,
			timing,
			sink: (rules) => new LedgerSink(ledger, name, consentColumns(rules.header, spec)),
			importedThrough: record.importedThrough,
			seen,
			wantText: true,
		});
		if (read.interrupted) return { stop: 'interrupted' };
		await ledger.setPhase(name, 'sending');
	} else if (record.phase === 'finished') {
		await ledger.setPhase(name, 'sending');
	}

	const chunks = deps.chunks ?? localChunks;
	const recovered = await chunks.recover(ledger, name);
	if (recovered > 0) {
		const lines: number[] = [];
		for await (const r of ledger.rows(name, ['uncertain'], 1000)) lines.push(r.line);
		reporter.event(
			'uncertain',
			{ lines, count: recovered },
			`${recovered} rows were being submitted when the last run stopped: they are uncertain and will not be sent again unless you ask with --resend-uncertain`,
		);
	}
	// The preflight has had an answer from the provider: rows an older version marked
	// uncertain after an error that proves their request never left can go now.
	const neverLeft = await ledger.requeueUncertainWith(name, NEVER_SENT_LOST_MESSAGES);
	if (neverLeft > 0)
		reporter.event(
			'requeued',
			{ count: neverLeft },
			`${neverLeft} rows marked uncertain by an earlier run never left (their request failed before reaching the provider): they are pending again`,
		);
	if (options.resendUncertain) {
		const n = await ledger.requeueUncertain(name);
		if (n > 0)
			reporter.event(
				'resend-uncertain',
				{ count: n },
				`${n} uncertain rows will be sent again (--resend-uncertain)`,
			);
	}

	const wait = waitUntil(timing);
	if (wait !== undefined && wait * 1000 > Date.now()) {
		reporter.event(
			'wait',
			{ until: new Date(wait * 1000).toISOString() },
			`--schedule is more than 14 days ahead: waiting until ${new Date(wait * 1000).toISOString()} to hand the messages to the provider`,
		);
		while (wait * 1000 > Date.now()) {
			if (signal?.aborted) return { stop: 'interrupted' };
			const c = await ledger.campaign(name);
			if (c?.phase === 'cancelled') break;
			await sleep(Math.min(1000, wait * 1000 - Date.now()), signal);
		}
	}

	const now = options.now ?? Date.now;
	if (options.winner !== undefined)
		await variantStep(spec, ledger, reporter, { winner: options.winner, now });
	let sent = 0;
	let seconds = 0;
	for (;;) {
		const result = await sendRound(spec, timing, options, deps, ledger, client, chunks);
		sent += result.sent;
		seconds += result.seconds;
		if (result.stop === 'finished') {
			// A variant campaign's test is sent: the rest goes once the winner is known.
			const step = await variantStep(spec, ledger, reporter, { now });
			if (step.kind === 'decided') continue;
			if (step.kind === 'waiting') {
				reporter.event(
					'variant-wait',
					{ campaign: name, decideAt: new Date(step.until).toISOString() },
					`the test is sent: waiting for the variant decision at ${new Date(step.until).toISOString()}`,
				);
				if (options.waitForVariantDecision) {
					const waited = await waitForDecision(ledger, name, step.until, now, signal);
					if (waited === 'interrupted') return { stop: 'interrupted' };
					continue;
				}
				return { stop: 'waiting', decideAt: step.until, sendRate: rateOf(sent, seconds) };
			}
		}
		if (result.pausedBy?.by === 'daily-spend-cap' && options.waitForNextDay) {
			const zone = dailyZone(options, timing.timeZone);
			const waited = await waitForNextDay(ledger, name, dayKey(zone, now()), zone, now, signal);
			if (waited === 'interrupted') return { stop: 'interrupted' };
			if (waited === 'next-day') {
				await ledger.setPaused(name, false);
				reporter.event(
					'resumed',
					{ campaign: name, pausedBy: 'daily-spend-cap' },
					`resumed: a new day (${dayKey(zone, now()).slice(DAY_KEY.length)}) under --daily-max-cost`,
				);
			}
			continue;
		}
		if (result.stop === 'cancelled') await ledger.cancelPending(name);
		if (result.stop === 'finished') await ledger.setPhase(name, 'finished');
		return { stop: result.stop, sendRate: rateOf(sent, seconds), fatal: result.fatal };
	}
}

/**
 * Until the decision is due by the run's clock, looking each second at the clock (a test's
 * moves on at once), at a cancel and at the stop signal.
 */
async function waitForDecision(
	ledger: Ledger,
	name: string,
	until: number,
	now: () => number,
	signal?: AbortSignal,
): Promise<'due' | 'interrupted'> {
	while (now() < until) {
		if (signal?.aborted) return 'interrupted';
		if ((await ledger.campaign(name))?.phase === 'cancelled') return 'due';
		await sleep(Math.min(1000, until - now()), signal);
	}
	return 'due';
}

/**
 * Until the day of the daily spend cap is over by the run's clock (a test's moves on at
 * once), looking each second; a person's resume or cancel ends the wait sooner (the send
 * stage then pauses again, or stops).
 */
async function waitForNextDay(
	ledger: Ledger,
	name: string,
	day: string,
	zone: string | undefined,
	now: () => number,
	signal?: AbortSignal,
): Promise<'next-day' | 'changed' | 'interrupted'> {
	for (;;) {
		if (signal?.aborted) return 'interrupted';
		if (dayKey(zone, now()) !== day) return 'next-day';
		const c = await ledger.campaign(name);
		if (!c?.paused || c.pausedBy?.by !== 'daily-spend-cap' || c.phase === 'cancelled')
			return 'changed';
		await sleep(1000, signal);
	}
}

/** The zone whose midnight starts the daily spend cap's day: limits.timeZone, else the campaign's, else UTC. */
const dailyZone = (options: RunCampaignOptions, campaignZone: string | undefined) =>
	options.dailyTimeZone ?? campaignZone;

interface StagesOutcome {
	stop: StopReason;
	sendRate?: number;
	fatal?: FatalError;
	/** Unix ms a variant decision is due, when the run stopped to wait for it. */
	decideAt?: number;
}

const rateOf = (sent: number, seconds: number) => (seconds > 0 ? sent / seconds : undefined);

/** One pass of the send stage over the pending rows. */
async function sendRound(
	spec: CampaignSpec,
	timing: Timing,
	options: RunCampaignOptions,
	deps: RunCampaignDeps,
	ledger: Ledger,
	client: BatchClient,
	chunks: ChunkSource,
) {
	const { reporter, signal } = deps;
	const name = spec.name;
	const counts = await ledger.counts(name);
	const chunkSize =
		options.rate > 0
			? Math.min(options.batchSize, Math.max(1, Math.ceil(options.rate / 10)))
			: options.batchSize;
	const bucket = new TokenBucket(options.rate, chunkSize);
	const result = await sendStage({
		campaign: name,
		propertySid: spec.propertySid,
		from: spec.from,
		timing,
		ledger,
		client,
		bucket,
		chunkSize,
		concurrency: options.concurrency,
		total: counts.rows.pending,
		reporter,
		signal,
		callbacks: options.callbacks,
		chunks,
		rate: options.rate,
		spendCaps: spendCapsOf(options, ledger, name, timing.timeZone),
		brake: new FailureRateBrake(ledger, name, options.maxFailureRate ?? DEFAULT_MAX_FAILURE_RATE),
		frequencyCap:
			options.frequencyCap === undefined
				? undefined
				: frequencyCapCheck(ledger, name, options.frequencyCap),
		backoff:
			options.retries === undefined
				? undefined
				: { ...DEFAULT_BACKOFF, maxAttempts: Math.floor(options.retries) + 1 },
	});
	return result;
}

async function settleStage(
	spec: CampaignSpec,
	options: RunCampaignOptions,
	deps: RunCampaignDeps,
	ledger: Ledger,
	outcome: StagesOutcome,
	started: number,
): Promise<CampaignSummary> {
	const name = spec.name;
	const counts = await ledger.counts(name);
	const firstErrors: RowProblem[] = [];
	for await (const r of ledger.rows(name, ['invalid', 'rejected'], 10))
		firstErrors.push({ line: r.line, code: r.errorCode ?? '', reason: r.message ?? '', to: r.to });
	const uncertainLines: number[] = [];
	for await (const r of ledger.rows(name, ['uncertain'], 1000)) uncertainLines.push(r.line);
	if (options.outPath) {
		const out = new OutFile(options.outPath);
		try {
			for await (const r of ledger.rows(name)) await out.write(outRecordOf(r));
		} finally {
			await out.close();
		}
	}
	const record = await ledger.campaign(name);
	const open = counts.total - FINAL_STATUSES.reduce((n, s: RowStatus) => n + counts.rows[s], 0);
	let stop = outcome.stop;
	if (stop === 'finished' && open > 0) stop = 'failed';
	const decideAt =
		outcome.decideAt === undefined ? undefined : new Date(outcome.decideAt).toISOString();
	const exitCode =
		stop === 'failed'
			? ExitCodes.Fatal
			: stop === 'interrupted'
				? ExitCodes.Interrupted
				: stop === 'paused' || stop === 'cancelled' || stop === 'waiting'
					? ExitCodes.Stopped
					: counts.rows.uncertain > 0
						? ExitCodes.Uncertain
						: ExitCodes.Finished;
	const pausedBy = stop === 'paused' ? record?.pausedBy : undefined;
	const message =
		outcome.fatal?.message ??
		(pausedBy
			? `campaign ${name} was paused by its ${pausedBy.by}: ${pausedBy.detail}`
			: decideAt !== undefined
				? `waiting for the variant decision at ${decideAt}: run the same command again after it to decide and send the rest to ${counts.rows.held} rows, or decide now with --winner N`
				: stop === 'paused'
					? `campaign ${name} is paused: \`cloudtel campaign resume\` it, then run it again`
					: stop === 'cancelled'
						? `campaign ${name} was cancelled`
						: stop === 'interrupted'
							? `interrupted: run the same command again to resume campaign ${name}`
							: stop === 'failed'
								? `${open} rows are still pending: run again to resume`
								: counts.rows.uncertain > 0
									? `${counts.rows.uncertain} rows are uncertain (their request may have reached the provider); check them, then run again with --resend-uncertain to send them anyway`
									: undefined);
	const summary: CampaignSummary = {
		campaign: name,
		dryRun: false,
		stop,
		phase: record?.phase,
		rows: counts.rows,
		total: counts.total,
		segments: counts.acceptedSegments,
		sendRate: outcome.sendRate,
		seconds: (performance.now() - started) / 1000,
		firstErrors,
		uncertainLines,
		message,
		exitCode,
		...(pausedBy ? { pausedBy: pausedBy.by } : {}),
		...(decideAt !== undefined ? { decideAt } : {}),
		...(stop === 'failed' && isStoreFault(outcome.fatal) ? { storeFault: true } : {}),
	};
	deps.reporter.summary(summary);
	return summary;
}

function spendCapsOf(
	options: RunCampaignOptions,
	ledger: Ledger,
	name: string,
	campaignZone: string | undefined,
): SpendCap[] {
	const price = options.pricePerSegment;
	if (price === undefined) return [];
	const caps: SpendCap[] = [];
	if (options.maxCost !== undefined)
		caps.push(
			new SpendCap(ledger, () => SPEND_KEY + name, {
				maxCost: options.maxCost,
				pricePerSegment: price,
			}),
		);
	if (options.dailyMaxCost !== undefined)
		caps.push(
			new SpendCap(
				ledger,
				() => dayKey(dailyZone(options, campaignZone), (options.now ?? Date.now)()),
				{ maxCost: options.dailyMaxCost, pricePerSegment: price },
				'daily-spend-cap',
			),
		);
	return caps;
}

function spendFitOf(options: RunCampaignOptions) {
	if (options.maxCost === undefined || options.pricePerSegment === undefined) return undefined;
	return new SpendFit({ maxCost: options.maxCost, pricePerSegment: options.pricePerSegment });
}
