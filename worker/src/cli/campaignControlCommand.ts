import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FatalError, STALE_OWNER_MS, UsageError } from '../errors';
import { sentRows } from '../storage/ledger';
import { ownerIsAlive } from '../storage/ownerIsAlive';
import { dbLocation } from '../storage/dbLocation';
import { openLedger } from '../storage/openStores';
import { runsOfCampaign } from '../daemon/callbacks/4-replies/runName';
import { DEFAULT_DB, dbSetting } from './campaignRunCommand';
import { formatStatus, readStatus } from './campaignStatus';

type Control = 'status' | 'pause' | 'resume' | 'cancel' | 'delete';

/** status, pause, resume, cancel, delete: they act through the ledger, which the running process watches. */
export async function campaignControlCommand(action: Control, argv: string[]): Promise<number> {
	let values;
	try {
		({ values } = parseArgs({
			args: argv,
			strict: true,
			options: {
				db: { type: 'string' },
				name: { type: 'string' },
				json: { type: 'boolean' },
				force: { type: 'boolean' },
			},
		}));
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	if (!values.name)
		throw new UsageError(`campaign ${action} needs --name (and --db, default ${DEFAULT_DB})`);
	const db = dbLocation(dbSetting(values.db));
	const dbPath = db.kind === 'postgres' ? db.shown : db.path;
	if (db.kind === 'sqlite' && !existsSync(db.path))
		throw new FatalError(`no ledger at ${dbPath}: give the --db the campaign ran with`);
	if (values.force && action !== 'delete')
		throw new UsageError(`--force is for campaign delete only`);
	// Status only reads: it works on a ledger the user may not write to.
	const ledger = await openLedger(db, { readonly: action === 'status' });
	try {
		let record = await ledger.campaign(values.name);
		// A config campaign's name stands for its latest cron run (`<campaign>-<tick>`), except for delete.
		const runs = record ? [] : runsOfCampaign(values.name, await ledger.campaignNames());
		if (!record && runs.length > 0 && action !== 'delete') {
			values.name = runs[0];
			record = await ledger.campaign(values.name);
		}
		if (!record)
			throw new FatalError(
				`no campaign named ${values.name} in ${dbPath}` +
					(runs.length > 0 ? `; its runs: ${runs.join(', ')}` : ''),
			);
		const live =
			record.owner && ownerIsAlive(record.owner, STALE_OWNER_MS) ? record.owner : undefined;
		const say = (text: string) => process.stdout.write(text + '\n');
		switch (action) {
			case 'status': {
				const status = await readStatus(ledger, values.name);
				const listed =
					runs.length > 0
						? `${runs[0].replace(/-\d{8}T\d{6}Z$/, '')} has ${runs.length} run${runs.length === 1 ? '' : 's'}, latest first: ${runs.join(', ')}\n`
						: '';
				process.stdout.write(
					values.json
						? JSON.stringify(runs.length > 0 ? { ...status, runs } : status, null, 2) + '\n'
						: listed + formatStatus(status),
				);
				return 0;
			}
			case 'delete': {
				if (live)
					throw new FatalError(
						`campaign ${values.name} is running (pid ${live.pid} on ${live.host}): cancel it and let the run stop before deleting it`,
					);
				const counts = await ledger.counts(values.name);
				const sent = sentRows(counts.rows);
				if (sent > 0 && !values.force) {
					throw new UsageError(
						`campaign ${values.name} has sent ${sent} messages (or may have): deleting it forgets them, and a new campaign of that name in this ledger could send them again. Add --force to delete it anyway`,
					);
				}
				await ledger.deleteCampaign(values.name);
				say(
					`deleted campaign ${values.name} (${counts.total} rows${sent > 0 ? `, ${sent} of them sent or uncertain` : ', none sent'}): the name is free`,
				);
				return 0;
			}
			case 'pause':
				if (record.phase === 'cancelled' || record.phase === 'finished')
					throw new FatalError(
						`campaign ${values.name} is ${record.phase}: there is nothing to pause`,
					);
				await ledger.setPaused(values.name, true);
				say(
					live
						? `paused campaign ${values.name}: the run (pid ${live.pid}) stops after the batches in flight and waits`
						: `paused campaign ${values.name}`,
				);
				return 0;
			case 'resume':
				if (record.phase === 'cancelled')
					throw new FatalError(`campaign ${values.name} was cancelled and cannot be resumed`);
				await ledger.setPaused(values.name, false);
				say(
					live
						? `resumed campaign ${values.name}: the run (pid ${live.pid}) continues`
						: `resumed campaign ${values.name}: no run is active, so run \`cloudtel campaign run --db ${dbPath} --name ${values.name}\` to continue sending`,
				);
				return 0;
			case 'cancel': {
				if (record.phase === 'finished')
					throw new FatalError(`campaign ${values.name} has finished: there is nothing to cancel`);
				await ledger.setPhase(values.name, 'cancelled');
				// With a live run, it cancels its own pending rows once its batches in flight settle.
				if (live) {
					say(
						`cancelled campaign ${values.name}: the run (pid ${live.pid}) stops after the batches in flight`,
					);
					return 0;
				}
				// Chunks a dead run left submitting may have reached the provider: uncertain, as a resume would mark them.
				const uncertain = await ledger.recoverSubmitting(values.name);
				const n = await ledger.cancelPending(values.name);
				say(
					`cancelled campaign ${values.name}: ${n} rows will not be sent` +
						(uncertain > 0 ? `; ${uncertain} rows a stopped run was submitting are uncertain` : ''),
				);
				return 0;
			}
		}
	} finally {
		await ledger.close();
	}
}
