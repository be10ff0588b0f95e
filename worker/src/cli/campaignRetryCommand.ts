import { dirname, join } from 'node:path';
import { UsageError } from '../errors';
import { RETRYABLE_ERROR_CODES } from '../settings/failureCodes';
import type { CampaignSpec } from '../settings/campaignSpec';
import { dbLocation } from '../storage/dbLocation';
import type { RetryableRow } from '../storage/ledger';
import { openLedger } from '../storage/openStores';
import { writePrivateFile } from '../storage/privateFile';
import { campaignRunCommand, dbSetting } from './campaignRunCommand';
import { parseFlags } from '../settings/parseFlags';

/** `campaign run` flags passed on as given: how to send, not what. */
const PASSED_ON = [
	'rate',
	'batch-size',
	'concurrency',
	'receipt-url',
	'reply-url',
	'base-url',
	'account-sid',
	'auth-token',
	'out',
	'threads',
	'retries',
	'price-per-segment',
	'max-cost',
	'daily-max-cost',
] as const;

/**
 * `campaign retry-failed --name NAME --as NEW`: a new campaign of NAME's rows whose receipt
 * failed with a code worth retrying, each sent the text it was sent before, with NAME's
 * settings. Its rows come from the ledger, written to a CSV beside it (NEW.retry.csv) that
 * `campaign run` reads as any list: a retry is then paced, suppressed and resumable as a run.
 */
export async function campaignRetryCommand(argv: string[]): Promise<number> {
	const values = retryFlags(argv);
	const text = (key: string) => values[key] as string | undefined;
	const name = text('name');
	const as = text('as');
	if (!name) throw new UsageError('give --name: the campaign whose failed rows to send again');
	if (!as) throw new UsageError('give --as NEW: the name of the campaign that retries them');
	if (as === name) throw new UsageError(`--as must name a new campaign, not ${name} itself`);
	const codes = errorCodes(text('error-codes'));
	const location = dbLocation(dbSetting(text('db')));
	const csv =
		text('list') ??
		join(location.kind === 'sqlite' ? dirname(location.path) : '.', `${as}.retry.csv`);
	let spec: CampaignSpec;
	const ledger = await openLedger(location);
	try {
		const original = await ledger.campaign(name);
		if (!original) throw new UsageError(`--name: no campaign named ${name} in this ledger`);
		spec = original.spec;
		// Started already: resumed from its own stored list, as `campaign run --name` would.
		if (!(await ledger.campaign(as))) {
			const rows = await ledger.retryableRows(name, codes);
			if (rows.length === 0) {
				process.stdout.write(
					`${name} has no row that failed with ${codes.join(', ')} and is neither suppressed nor delivered since: nothing to retry\n`,
				);
				return 0;
			}
			writePrivateFile(csv, retryCsv(rows));
		}
	} finally {
		await ledger.close();
	}
	return campaignRunCommand([...runFlags(spec, as, csv), ...passedOn(values)]);
}

/** The stored settings that still apply to rows already rendered and numbers already in E.164. */
function runFlags(spec: CampaignSpec, as: string, csv: string): string[] {
	const flags = ['--name', as, '--csv', csv, '--to-column', 'to', '--text', '{{text}}'];
	flags.push('--property', spec.propertySid);
	if (spec.from !== undefined) flags.push('--from', spec.from);
	if (spec.timeZoneColumn !== undefined) flags.push('--time-zone-column', 'time_zone');
	else if (spec.timeZone !== undefined) flags.push('--time-zone', spec.timeZone);
	if (spec.sendWindow !== undefined) flags.push('--send-window', spec.sendWindow);
	if (spec.smartEncoding) flags.push('--smart-encoding');
	if (spec.requireConsent) flags.push('--require-consent');
	if (spec.countries !== undefined) flags.push('--countries', spec.countries);
	if (spec.allowLandlines) flags.push('--allow-landlines');
	// Not --track-links: each text already holds the links NAME tracked, and counts clicks there.
	return flags;
}

function passedOn(values: Record<string, string | boolean | undefined>): string[] {
	const out: string[] = [];
	if (values.db !== undefined) out.push('--db', String(values.db));
	for (const key of PASSED_ON)
		if (values[key] !== undefined) out.push(`--${key}`, String(values[key]));
	if (values.json) out.push('--json');
	return out;
}

function retryCsv(rows: readonly RetryableRow[]): string {
	const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;
	const lines = rows.map((r) => [r.to, r.text, r.timeZone ?? ''].map(cell).join(','));
	return `to,text,time_zone\n${lines.join('\n')}\n`;
}

function errorCodes(flag: string | undefined): readonly string[] {
	if (flag === undefined) return RETRYABLE_ERROR_CODES;
	const codes = flag
		.split(',')
		.map((c) => c.trim())
		.filter(Boolean);
	if (codes.length === 0)
		throw new UsageError(
			`--error-codes must list receipt ErrorCodes, comma-separated, such as ${RETRYABLE_ERROR_CODES.join(',')} (got "${flag}")`,
		);
	return codes;
}

function retryFlags(argv: string[]) {
	return parseFlags(argv, {
		db: { type: 'string' },
		name: { type: 'string' },
		as: { type: 'string' },
		'error-codes': { type: 'string' },
		list: { type: 'string' },
		json: { type: 'boolean' },
		...Object.fromEntries(PASSED_ON.map((k) => [k, { type: 'string' as const }])),
	}) as Record<string, string | boolean | undefined>;
}
