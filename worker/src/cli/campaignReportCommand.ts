import { accessSync, constants, existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { FatalError, UsageError } from '../errors';
import { readCampaignReport } from '../campaignReport/campaignReport';
import { reportHtml } from '../campaignReport/reportHtml';
import { reportText } from '../campaignReport/reportText';
import { dbLocation } from '../storage/dbLocation';
import { openLedger } from '../storage/openStores';
import { writePrivateFile } from '../storage/privateFile';
import { runsOfCampaign } from '../daemon/callbacks/4-replies/runName';
import { DEFAULT_DB, dbSetting } from './campaignRunCommand';
import { parseCurrency, parsePrice } from './parseNumberFlag';
import { parseFlags } from '../settings/parseFlags';

/** `cloudtel campaign report --db FILE --name NAME [--html FILE] [--json] [--price-per-segment N] [--currency C]` */
export async function campaignReportCommand(argv: string[]): Promise<number> {
	const values = parseFlags(argv, {
		db: { type: 'string' },
		name: { type: 'string' },
		html: { type: 'string' },
		json: { type: 'boolean' },
		'price-per-segment': { type: 'string' },
		currency: { type: 'string' },
	});
	if (!values.name)
		throw new UsageError(`campaign report needs --name (and --db, default ${DEFAULT_DB})`);
	const price = values['price-per-segment'];
	const pricePerSegment = parsePrice(price);
	const currency = parseCurrency(values.currency);
	if (values.html !== undefined && values.html.trim() === '')
		throw new UsageError('--html needs the path of the file to write');
	const db = dbLocation(dbSetting(values.db));
	const dbPath = db.kind === 'postgres' ? db.shown : db.path;
	if (db.kind === 'sqlite' && !existsSync(db.path))
		throw new FatalError(`no ledger at ${dbPath}: give the --db the campaign ran with`);
	// Read only where it must be: a Postgres role may only SELECT, and its schema is the
	// workers' to upgrade; a SQLite ledger the user may not write to (or beside). A SQLite
	// ledger of their own is upgraded, should it be older, as any command would.
	const ledger = await openLedger(db, { readonly: db.kind === 'postgres' || !writable(db.path) });
	try {
		if (!(await ledger.campaign(values.name))) {
			// A config campaign's name stands for its latest cron run, as in `campaign status`.
			const runs = runsOfCampaign(values.name, await ledger.campaignNames());
			if (runs.length === 0) throw new FatalError(`no campaign named ${values.name} in ${dbPath}`);
			process.stderr.write(
				`${values.name} has ${runs.length} run${runs.length === 1 ? '' : 's'}, latest first: ${runs.join(', ')}; this is the report of the latest, ${runs[0]}\n`,
			);
			values.name = runs[0];
		}
		const report = await readCampaignReport(ledger, values.name, { pricePerSegment, currency });
		if (values.html !== undefined) {
			// Written beside, then renamed: a browser or a mail never picks up half a report. The
			// new file is private, as the ledger it comes from, whatever mode an older report had.
			const temp = `${values.html}.${process.pid}.tmp`;
			try {
				writePrivateFile(temp, reportHtml(report));
				renameSync(temp, values.html);
			} catch (error) {
				throw new FatalError(`cannot write --html ${values.html}: ${(error as Error).message}`);
			}
			process.stderr.write(`report of campaign ${values.name} written to ${values.html}\n`);
		}
		if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
		else if (values.html === undefined) process.stdout.write(reportText(report));
		return 0;
	} finally {
		await ledger.close();
	}
}

/** Whether SQLite may write the file and, for its WAL, the directory it is in. */
function writable(path: string): boolean {
	try {
		accessSync(path, constants.W_OK);
		accessSync(dirname(path), constants.W_OK);
		return true;
	} catch {
		return false;
	}
}
