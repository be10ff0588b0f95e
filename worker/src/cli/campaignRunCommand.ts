import { basename, extname } from 'node:path';
import { DURATION_EXAMPLES, durationMs, isWebhookUri } from '../../../api';
import type { CampaignSpec, WinnerBy } from '../settings/campaignSpec';
import { RUN_DEFAULTS, UsageError } from '../errors';
import { runCampaign } from '../campaign/runCampaign';
import { SINGLE_BYTE_ENCODINGS } from '../csv/csvDecoder';
import { STDIN } from '../csv/openCsv';
import { baseUrlProblem } from '../provider/checkBaseUrl';
import { dbLocation } from '../storage/dbLocation';
import { openRunLedger } from '../storage/openStores';
import { DB_OUTAGE_LIMIT_MS } from '../storage/postgres/ridingOutRestarts';
import type { Ledger } from '../storage/ledger';
import { existsSync } from 'node:fs';
import { linkBaseProblem } from '../settings/linkBase';
import { pickReporter } from './pickReporter';
import { parseCountries } from '../rows/numberGuard';
import { interruptSignal } from './interruptSignal';
import {
	parseFailureRate,
	parseMaxCost,
	parseNumberFlag,
	parsePrice,
	parseRateFlag,
} from './parseNumberFlag';
import { parseFlags } from '../settings/parseFlags';

export const DEFAULT_DB = 'cloudtel.db';

/** `--db`, else CLOUDTEL_DB, else the SQLite file in the working folder. */
export function dbSetting(flag: string | undefined): string {
	return flag ?? (process.env.CLOUDTEL_DB || DEFAULT_DB);
}

export async function campaignRunCommand(argv: string[]): Promise<number> {
	const values = runFlags(argv);
	const csv = values.csv;
	if (csv === STDIN && !values.name)
		throw new UsageError('--csv - reads standard input: give the campaign a --name');
	const name = values.name ?? (csv ? defaultName(csv) : undefined);
	if (!name) throw new UsageError('give --name (or --csv, whose file name names a new campaign)');
	const spec: Partial<CampaignSpec> & { name: string } = {
		name,
		csvPath: csv,
		propertySid: values.property,
		text: values.text,
		from: values.from,
		toColumn: values['to-column'],
		defaultCountry: values['default-country']?.toUpperCase(),
		timeZone: values['time-zone'],
		timeZoneColumn: values['time-zone-column'],
		sendWindow: values['send-window'],
		schedule: values.schedule === undefined ? undefined : parseSchedule(values.schedule),
		delimiter: values.delimiter === undefined ? undefined : parseDelimiter(values.delimiter),
		encoding: values.encoding === undefined ? undefined : parseEncoding(values.encoding),
		// A flag given turns it on; a resume without it keeps the stored setting.
		smartEncoding: values['smart-encoding'] ? true : undefined,
		linkBase: trackedLinkBase(values['track-links'], values['link-base']),
		consentColumn: values['consent-column'],
		consentAtColumn: values['consent-at-column'],
		requireConsent: values['require-consent'] ? true : undefined,
		countries: values.countries === undefined ? undefined : parseCountries(values.countries),
		allowLandlines: values['allow-landlines'] ? true : undefined,
		...variantFlags(values),
	};
	const db = dbLocation(dbSetting(values.db));
	const dryRun = values['dry-run'] ?? false;
	// A dry run writes nothing: it reads an existing ledger only for its suppression list.
	const reporter = pickReporter(values.json ?? false);
	// A Postgres restarting under the run: sending waits for it, up to a limit, rather than failing.
	let waiting = false;
	const onLost = (waitedMs: number, error: Error): void => {
		if (waitedMs > 0 && waiting) return;
		waiting = true;
		reporter.event(
			'db-retry',
			{ error: error.message.split('\n')[0], limitSeconds: DB_OUTAGE_LIMIT_MS / 1000 },
			`the connection to Postgres was lost (${error.message.split('\n')[0]}); waiting up to ${DB_OUTAGE_LIMIT_MS / 1000} s for it to answer`,
		);
	};
	const ledger: Ledger | undefined =
		!dryRun || db.kind === 'postgres' || existsSync(db.path)
			? await openRunLedger(db, onLost)
			: undefined;
	const interrupt = interruptSignal(reporter);
	try {
		const baseUrl = values['base-url'] ?? process.env.CLOUDTEL_BASE_URL;
		const accountSid = values['account-sid'] ?? process.env.CLOUDTEL_ACCOUNT_SID;
		const authToken = values['auth-token'] ?? process.env.CLOUDTEL_AUTH_TOKEN;
		const missing = [
			!baseUrl && 'CLOUDTEL_BASE_URL (--base-url)',
			!accountSid && 'CLOUDTEL_ACCOUNT_SID (--account-sid)',
			!authToken && 'CLOUDTEL_AUTH_TOKEN (--auth-token)',
		].filter(Boolean);
		if (!dryRun && missing.length > 0)
			throw new UsageError(
				`the provider's address and credentials are missing: set ${missing.join(', ')}`,
			);
		const badUrl = dryRun ? undefined : baseUrlProblem(baseUrl!);
		if (badUrl) throw new UsageError(`--base-url (CLOUDTEL_BASE_URL) ${badUrl}`);
		const summary = await runCampaign(
			{
				spec,
				provider: dryRun
					? undefined
					: { baseUrl: baseUrl!, accountSid: accountSid!, authToken: authToken! },
				rate: parseRateFlag(values.rate),
				batchSize: parseNumberFlag('--batch-size', values['batch-size'], RUN_DEFAULTS.batchSize),
				concurrency: parseNumberFlag('--concurrency', values.concurrency, RUN_DEFAULTS.concurrency),
				dryRun,
				resendUncertain: values['resend-uncertain'] ?? false,
				outPath: values.out,
				retries:
					values.retries === undefined
						? undefined
						: parseNumberFlag('--retries', values.retries, 7),
				threads:
					values.threads === undefined
						? undefined
						: parseNumberFlag('--threads', values.threads, 0),
				callbacks: callbacksFrom(values['receipt-url'], values['reply-url']),
				pricePerSegment: parsePrice(values['price-per-segment']),
				registeredSenderIds: values['registered-sender-ids']
					?.split(',')
					.map((id) => id.trim())
					.filter((id) => id !== ''),
				maxCost: parseMaxCost(values['max-cost']),
				dailyMaxCost: parseMaxCost(values['daily-max-cost'], '--daily-max-cost'),
				winner:
					values.winner === undefined ? undefined : parseNumberFlag('--winner', values.winner, 1),
				maxFailureRate: parseFailureRate(values['max-failure-rate']),
				frequencyCap: values['frequency-cap'],
			},
			{ ledger, reporter, signal: interrupt.signal },
		);
		return summary.exitCode;
	} finally {
		interrupt.dispose();
		reporter.close();
		await ledger?.close();
	}
}

const NUMBER_FLAGS = new Set(['--rate', '--batch-size', '--concurrency', '--threads', '--retries']);

/**
 * `--rate -5` as `--rate=-5`: parseArgs would take -5 for a flag and answer that the value
 * is missing, where the value is there and wrong, which the flag's own check says.
 */
function joinNegativeNumbers(argv: string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		if (NUMBER_FLAGS.has(argv[i]) && /^-[\d.]/.test(argv[i + 1] ?? ''))
			out.push(`${argv[i]}=${argv[++i]}`);
		else out.push(argv[i]);
	}
	return out;
}

function runFlags(argv: string[]) {
	return parseFlags(joinNegativeNumbers(argv), {
		csv: { type: 'string' },
		property: { type: 'string' },
		text: { type: 'string' },
		from: { type: 'string' },
		'to-column': { type: 'string' },
		'default-country': { type: 'string' },
		name: { type: 'string' },
		db: { type: 'string' },
		rate: { type: 'string' },
		'batch-size': { type: 'string' },
		concurrency: { type: 'string' },
		schedule: { type: 'string' },
		'send-window': { type: 'string' },
		'time-zone': { type: 'string' },
		'time-zone-column': { type: 'string' },
		'consent-column': { type: 'string' },
		'consent-at-column': { type: 'string' },
		'require-consent': { type: 'boolean' },
		delimiter: { type: 'string' },
		encoding: { type: 'string' },
		'smart-encoding': { type: 'boolean' },
		'track-links': { type: 'boolean' },
		'link-base': { type: 'string' },
		'price-per-segment': { type: 'string' },
		'max-cost': { type: 'string' },
		'daily-max-cost': { type: 'string' },
		'max-failure-rate': { type: 'string' },
		'frequency-cap': { type: 'string' },
		countries: { type: 'string' },
		'allow-landlines': { type: 'boolean' },
		'registered-sender-ids': { type: 'string' },
		out: { type: 'string' },
		'dry-run': { type: 'boolean' },
		'resend-uncertain': { type: 'boolean' },
		json: { type: 'boolean' },
		threads: { type: 'string' },
		retries: { type: 'string' },
		'receipt-url': { type: 'string' },
		'reply-url': { type: 'string' },
		'base-url': { type: 'string' },
		'account-sid': { type: 'string' },
		'auth-token': { type: 'string' },
		variant: { type: 'string', multiple: true },
		'test-share': { type: 'string' },
		'winner-by': { type: 'string' },
		'decide-after': { type: 'string' },
		winner: { type: 'string' },
	});
}

/**
 * Where the provider calls back: a running `cloudtel worker` sharing this ledger stores the
 * receipts against their rows. Not part of the campaign: a resume may give another URL.
 */
function callbacksFrom(receiptUrl: string | undefined, replyUrl: string | undefined) {
	for (const [flag, url] of [
		['--receipt-url', receiptUrl],
		['--reply-url', replyUrl],
	] as const) {
		if (url !== undefined && !isWebhookUri(url))
			throw new UsageError(
				`${flag} must be an absolute http or https URL, such as http://worker.example:8080/callbacks/SECRET/receipts (got "${url}")`,
			);
	}
	if (receiptUrl === undefined && replyUrl === undefined) return undefined;
	return {
		...(receiptUrl !== undefined ? { DeliveryReceiptWebhookUri: receiptUrl } : {}),
		...(replyUrl !== undefined ? { WebhookUri: replyUrl } : {}),
	};
}

/** `--track-links` needs the address its links are served at; either alone is a mistake. */
function trackedLinkBase(track: boolean | undefined, base: string | undefined): string | undefined {
	if (!track && base === undefined) return undefined;
	if (!track)
		throw new UsageError('--link-base is where tracked links point: give --track-links with it');
	if (base === undefined)
		throw new UsageError(
			'--track-links needs --link-base URL: the address a `cloudtel worker` answers the links at, such as https://go.example.com or {publicUrl}/l',
		);
	const problem = linkBaseProblem(base);
	if (problem) throw new UsageError(`--link-base ${problem}`);
	return base.replace(/\/+$/, '');
}

/** `--variant` (repeated), `--test-share`, `--winner-by`, `--decide-after`: undefined when not given, so a resume keeps the stored ones. */
function variantFlags(values: {
	variant?: string[];
	'test-share'?: string;
	'winner-by'?: string;
	'decide-after'?: string;
}): Pick<CampaignSpec, 'variants' | 'testShare' | 'winnerBy' | 'decideAfter'> {
	const share = values['test-share'];
	const after = values['decide-after'];
	const afterMs = after === undefined ? undefined : durationMs(after);
	const decideAfter = afterMs === undefined ? undefined : afterMs / 1000;
	if (after !== undefined && decideAfter === undefined)
		throw new UsageError(
			`--decide-after must be a duration such as ${DURATION_EXAMPLES} (got "${after}")`,
		);
	return {
		variants: values.variant,
		testShare: share === undefined ? undefined : Number(share.trim() === '' ? NaN : share),
		winnerBy: values['winner-by'] as WinnerBy | undefined,
		decideAfter,
	};
}

function defaultName(csv: string): string {
	return (
		basename(csv, extname(csv))
			.replace(/[^A-Za-z0-9._-]+/g, '-')
			.slice(0, 64) || 'campaign'
	);
}

function parseSchedule(value: string): number {
	const ms = Date.parse(value);
	if (Number.isNaN(ms))
		throw new UsageError(
			`--schedule must be an ISO 8601 time such as 2030-05-01T09:00:00+10:00 (got "${value}")`,
		);
	return Math.floor(ms / 1000);
}

function parseEncoding(value: string): string | undefined {
	const name = value.toLowerCase();
	// UTF-8 is what a file without --encoding is read as: the spec keeps no setting for it.
	if (name === 'utf-8' || name === 'utf8') return undefined;
	if (!(name in SINGLE_BYTE_ENCODINGS))
		throw new UsageError(
			`--encoding must be windows-1252 (Excel's "CSV (Comma delimited)") or latin1; UTF-8 and UTF-16 with a BOM are read without it (got "${value}")`,
		);
	return name;
}

function parseDelimiter(value: string): string {
	const d = value === '\\t' || value.toLowerCase() === 'tab' ? '\t' : value;
	if (d.length !== 1)
		throw new UsageError(`--delimiter must be one character, or "tab" (got "${value}")`);
	return d;
}
