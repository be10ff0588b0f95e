import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FatalError, UsageError } from '../errors';
import type { ContactEvent, ContactHistory } from '../storage/contact';
import { PhoneNormalizer } from '../rows/phoneNormalizer';
import { localTime } from '../schedule/localTime';
import { resolveTimeZone } from '../schedule/timeZone';
import { forgetInApiCampaigns, type ApiForgetResult } from '../daemon/api/forgetInApiCampaigns';
import type { ForgetResult } from '../storage/contact';
import { dbLocation, type DbLocation } from '../storage/dbLocation';
import type { Ledger } from '../storage/ledger';
import { openApiCampaignStore } from '../storage/openApiCampaignStore';
import { openLedger } from '../storage/openStores';
import { dbSetting } from './campaignRunCommand';

/** `cloudtel contact show|forget NUMBER`: one person's record across every campaign of a ledger. */
export async function contactCommand(action: string | undefined, argv: string[]): Promise<number> {
	if (action !== 'show' && action !== 'forget' && action !== 'export')
		throw new UsageError(
			`unknown contact command ${action === undefined ? '(none)' : JSON.stringify(action)}: use show, export or forget`,
		);
	let parsed;
	try {
		parsed = parseArgs({
			args: argv,
			strict: true,
			allowPositionals: true,
			options: {
				db: { type: 'string' },
				json: { type: 'boolean' },
				'default-country': { type: 'string' },
				'time-zone': { type: 'string' },
			},
		});
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	const { values, positionals } = parsed;
	if (positionals.length !== 1)
		throw new UsageError(`contact ${action} needs one NUMBER, such as +61491570156`);
	if (values.json && action === 'forget') throw new UsageError('--json is for contact show');
	let normalizer: PhoneNormalizer;
	try {
		normalizer = new PhoneNormalizer(values['default-country']?.toUpperCase());
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	const phone = normalizer.normalize(positionals[0]);
	if ('error' in phone)
		throw new UsageError(
			`NUMBER: ${phone.error} (got "${positionals[0]}"; write it as +61491570156, or give --default-country)`,
		);
	const zone = values['time-zone'] === undefined ? undefined : resolveTimeZone(values['time-zone']);
	if (values['time-zone'] !== undefined && !zone)
		throw new UsageError(
			`--time-zone "${values['time-zone']}" is neither a Windows nor an IANA time zone`,
		);
	const db = dbLocation(dbSetting(values.db));
	const shown = db.kind === 'postgres' ? db.shown : db.path;
	if (db.kind === 'sqlite' && !existsSync(db.path))
		throw new FatalError(`no ledger at ${shown}: give the --db the campaigns ran with`);
	const ledger = await openLedger(db, { readonly: action !== 'forget' && db.kind === 'postgres' });
	try {
		if (action === 'export') {
			// A subject-access request: everything the ledger holds about the number, as JSON.
			const history = await ledger.contactHistory(phone.e164);
			process.stdout.write(
				JSON.stringify({ exportedAt: new Date().toISOString(), ...history }, null, 2) + '\n',
			);
			return 0;
		}
		if (action === 'show') {
			const history = await ledger.contactHistory(phone.e164);
			process.stdout.write(
				values.json ? JSON.stringify(history, null, 2) + '\n' : formatHistory(history, zone),
			);
			return 0;
		}
		const { r, api } = await forget(db, ledger, phone.e164);
		process.stdout.write(
			`forgot ${phone.e164}: ${r.rows} row${r.rows === 1 ? '' : 's'} erased with their texts, receipts and replies` +
				(r.campaigns.length > 0 ? ` (campaigns ${r.campaigns.join(', ')})` : '') +
				(r.callbacks > 0
					? `; ${r.callbacks} stored callback${r.callbacks === 1 ? '' : 's'} naming it`
					: '') +
				(api.recipients + api.mentions > 0
					? `; ${api.recipients} recipient${api.recipients === 1 ? '' : 's'} blanked in the pages of API campaign${api.campaigns.length === 1 ? '' : 's'} ${api.campaigns.join(', ')}`
					: '') +
				(api.mentions > 0
					? `; ${api.mentions} other recipient${api.mentions === 1 ? '' : 's'} naming it kept, the value${api.mentions === 1 ? '' : 's'} blanked`
					: '') +
				(r.suppressionKept
					? '; its opt-out is kept as a one-way hash, so no later campaign texts it'
					: '') +
				'\n' +
				reclaimedNote(db, r.reclaimed),
		);
		return 0;
	} finally {
		await ledger.close();
	}
}

/** An import still reading may have read the number before it was blanked: how long its end is waited for. */
const IMPORT_WAIT_MS = 60_000;
/** How long an import about to begin (no ledger campaign yet) is waited for: a worker takes a started campaign up within seconds. */
const IMPORT_START_WAIT_MS = 10_000;

/**
 * The API campaigns' pages first, so that an import under way reads blanks from then on;
 * then the ledger. A row an import read before the blank
 * and stores after is caught once that import is over, by erasing again.
 */
async function forget(
	db: DbLocation,
	ledger: Ledger,
	e164: string,
): Promise<{ r: ForgetResult; api: ApiForgetResult }> {
	const store = await openApiCampaignStore(db, ledger);
	try {
		const api = await forgetInApiCampaigns(store, ledger, e164);
		const r = await ledger.forgetContact(e164);
		if (api.importing.length === 0) return { r, api };
		const since = Date.now();
		const waiting = async () => {
			const runs = await Promise.all(api.importing.map((name) => ledger.campaign(name)));
			return runs.some(
				(c) =>
					c?.phase === 'importing' ||
					(c === undefined && Date.now() < since + IMPORT_START_WAIT_MS),
			);
		};
		while (Date.now() < since + IMPORT_WAIT_MS && (await waiting()))
			await new Promise((done) => setTimeout(done, 250));
		const again = await ledger.forgetContact(e164);
		return {
			r: {
				...r,
				rows: r.rows + again.rows,
				campaigns: [...new Set([...r.campaigns, ...again.campaigns])].sort(),
				callbacks: r.callbacks + again.callbacks,
				reclaimed: again.reclaimed,
			},
			api,
		};
	} finally {
		// On SQLite it lends the ledger's connection, which the ledger closes.
		await store.close();
	}
}

/** What became of the erased bytes: the files rewritten, or what is left for the operator. */
function reclaimedNote(db: DbLocation, reclaimed: boolean): string {
	if (db.kind === 'postgres')
		return "the tables that held it are vacuumed; Postgres's WAL and any backups keep older copies until they are recycled (README: Consent and opt-outs)\n";
	return reclaimed
		? `${db.path}: the freed space overwritten and the WAL emptied; no byte of it is left in the file\n`
		: `${db.path}: the freed space overwritten, but another process was reading, so the WAL still holds older pages: run contact forget again when the worker is idle\n`;
}

const LABEL: Record<ContactEvent['kind'], string> = {
	message: 'message',
	receipt: 'receipt',
	reply: 'reply',
	click: 'click',
	'opt-out': 'opted out',
	'opt-in': 'opted in',
	review: 'to review',
	'review-rejected': 'kept',
	confirmation: 'confirmed',
	consent: 'consent',
};

/** One line an event, in time order, local times with their zone. */
export function formatHistory(h: ContactHistory, zone?: string): string {
	const lines = [
		`${h.number}: ${h.events.length} event${h.events.length === 1 ? '' : 's'}; ${h.suppressed ? `suppressed since ${localTime(Math.floor(h.suppressed.since / 1000), zone)} (${h.suppressed.reason})` : 'not suppressed'}`,
	];
	for (const e of h.events) {
		const when =
			e.at !== undefined ? localTime(Math.floor(e.at / 1000), zone) : 'not sent'.padEnd(23);
		const where = e.campaign !== undefined ? ` ${e.campaign} line ${e.line}` : '';
		const what = [e.status, e.messageSid, e.detail].filter(Boolean).join(', ');
		lines.push(
			`  ${when}  ${LABEL[e.kind].padEnd(9)}${where}${what ? ` (${what})` : ''}${e.text !== undefined ? `: ${e.text}` : ''}`,
		);
	}
	return lines.join('\n') + '\n';
}
