import { existsSync, renameSync } from 'node:fs';
import { EVIDENCE_COLUMNS, evidenceCsvLine } from '../campaign/evidenceCsv';
import { FatalError, UsageError } from '../errors';
import type { EvidenceRow } from '../storage/evidence';
import { dbLocation } from '../storage/dbLocation';
import { openLedger } from '../storage/openStores';
import { writePrivateFile } from '../storage/privateFile';
import { DEFAULT_DB, dbSetting } from './campaignRunCommand';
import { parseFlags } from '../settings/parseFlags';

/**
 * `cloudtel campaign evidence --name NAME --out FILE [--json]`: one line per recipient with
 * consent, the text as sent, when it was handed over, its MessageSid and receipt, replies,
 * the opt-out that followed and whether anything went after an opt-out.
 */
export async function campaignEvidenceCommand(argv: string[]): Promise<number> {
	const values = parseFlags(argv, {
		db: { type: 'string' },
		name: { type: 'string' },
		out: { type: 'string' },
		json: { type: 'boolean' },
	});
	if (!values.name)
		throw new UsageError(`campaign evidence needs --name (and --db, default ${DEFAULT_DB})`);
	if (!values.out?.trim()) throw new UsageError('campaign evidence needs --out FILE');
	const db = dbLocation(dbSetting(values.db));
	const dbPath = db.kind === 'postgres' ? db.shown : db.path;
	if (db.kind === 'sqlite' && !existsSync(db.path))
		throw new FatalError(`no ledger at ${dbPath}: give the --db the campaign ran with`);
	const ledger = await openLedger(db, { readonly: db.kind === 'postgres' });
	try {
		if (!(await ledger.campaign(values.name)))
			throw new FatalError(`no campaign named ${values.name} in ${dbPath}`);
		const rows: EvidenceRow[] = [];
		for await (const r of ledger.evidence(values.name)) rows.push(r);
		const body = values.json
			? JSON.stringify(
					{ campaign: values.name, exportedAt: new Date().toISOString(), rows },
					null,
					2,
				) + '\n'
			: [EVIDENCE_COLUMNS.join(','), ...rows.map(evidenceCsvLine)].join('\r\n') + '\r\n';
		// Private, as the ledger it comes from; written beside and renamed, never half a file.
		const temp = `${values.out}.${process.pid}.tmp`;
		try {
			writePrivateFile(temp, body);
			renameSync(temp, values.out);
		} catch (error) {
			throw new FatalError(`cannot write --out ${values.out}: ${(error as Error).message}`);
		}
		const after = rows.filter((r) => r.sentAfterOptOut).length;
		process.stdout.write(
			`evidence of campaign ${values.name}: ${rows.length} recipient${rows.length === 1 ? '' : 's'} written to ${values.out}; ` +
				(after === 0
					? 'no message was handed over after its number opted out\n'
					: `${after} message${after === 1 ? ' was' : 's were'} handed over while the number was opted out (sent_after_opt_out YES)\n`),
		);
		return 0;
	} finally {
		await ledger.close();
	}
}
