import { existsSync } from 'node:fs';
import { FatalError, STALE_OWNER_MS, UsageError } from '../errors';
import { sentRows } from '../storage/ledger';
import { ownerIsAlive } from '../storage/ownerIsAlive';
import { dbLocation, type DbLocation } from '../storage/dbLocation';
import { openLedger } from '../storage/openStores';
import { openApiCampaignStore } from '../storage/openApiCampaignStore';
import { ApiError } from '../daemon/api/apiError';
import { CampaignControl } from '../daemon/api/campaignControl';
import { runsOfCampaign } from '../daemon/callbacks/4-replies/runName';
import { DEFAULT_DB, dbSetting } from './campaignRunCommand';
import { formatStatus, readStatus } from './campaignStatus';
import { parseFlags } from '../settings/parseFlags';

type Control = 'status' | 'pause' | 'resume' | 'cancel' | 'delete';

/**
 * After a delete: with --purge, what was removed to the last byte; without, how to get
 * there (its rows' old bytes stay in the file's free space until it is rewritten).
 */
function purgeNote(db: DbLocation, reclaimed: boolean | undefined): string {
	const where = db.kind === 'postgres' ? 'the database' : db.path;
	if (reclaimed === undefined)
		return `its texts may still be read in the free space of ${where}: \`campaign delete --purge\` also drops its stored callbacks and rewrites the database; for test data, deleting ${db.kind === 'postgres' ? 'the database' : `${db.path}, its -wal and -shm files, its spool folder and ${db.path}.api`} removes every trace`;
	if (db.kind === 'postgres')
		return `purged: its stored callbacks dropped, the tables vacuumed (Postgres's WAL and backups keep older copies until recycled)`;
	return reclaimed
		? `purged: its stored callbacks dropped, ${where} rewritten and its WAL emptied: no byte of the campaign is left in it`
		: `purged: its stored callbacks dropped, ${where} rewritten, but another process was reading, so the WAL still holds older pages: run it again when the worker is idle`;
}

/**
 * status, pause, resume, cancel, delete: they act through the ledger, which the running
 * process watches, and on an API campaign's record as the API does (campaignControl.ts).
 */
export async function campaignControlCommand(action: Control, argv: string[]): Promise<number> {
	const values = parseFlags(argv, {
		db: { type: 'string' },
		name: { type: 'string' },
		json: { type: 'boolean' },
		force: { type: 'boolean' },
		purge: { type: 'boolean' },
	});
	if (!values.name)
		throw new UsageError(`campaign ${action} needs --name (and --db, default ${DEFAULT_DB})`);
	const db = dbLocation(dbSetting(values.db));
	const dbPath = db.kind === 'postgres' ? db.shown : db.path;
	if (db.kind === 'sqlite' && !existsSync(db.path))
		throw new FatalError(`no ledger at ${dbPath}: give the --db the campaign ran with`);
	if (values.force && action !== 'delete')
		throw new UsageError(`--force is for campaign delete only`);
	if (values.purge && action !== 'delete')
		throw new UsageError(`--purge is for campaign delete only`);
	// Status only reads: it works on a ledger the user may not write to.
	const ledger = await openLedger(db, { readonly: action === 'status' });
	// Beside it, on its connection: an API campaign's record, which the API's runner watches.
	const store = action === 'status' ? undefined : await openApiCampaignStore(db, ledger);
	try {
		const control = () => new CampaignControl({ ledger, store: store! });
		const api = await store?.campaign(values.name);
		let record = await ledger.campaign(values.name);
		// A config campaign's name stands for its latest cron run (`<campaign>-<tick>`), except for delete.
		const runs = record ? [] : runsOfCampaign(values.name, await ledger.campaignNames());
		if (!record && !api && runs.length > 0 && action !== 'delete') {
			values.name = runs[0];
			record = await ledger.campaign(values.name);
		}
		// An API campaign not yet imported has no ledger campaign: its record is acted on alone.
		if (api && api.state === 'draft' && action !== 'delete')
			throw new FatalError(
				`campaign ${values.name} has not started: start it through the campaign API (POST /api/campaigns/${values.name}/start)`,
			);
		if (!record && !api)
			throw new FatalError(
				`no campaign named ${values.name} in ${dbPath}` +
					(runs.length > 0 ? `; its runs: ${runs.join(', ')}` : ''),
			);
		const live =
			record?.owner && ownerIsAlive(record.owner, STALE_OWNER_MS) ? record.owner : undefined;
		// An API campaign's end, as the API shows it, counts as the ledger's does.
		const phase =
			api?.state === 'cancelled'
				? 'cancelled'
				: api?.state === 'finished' || api?.state === 'failed'
					? 'finished'
					: record?.phase;
		const say = (text: string) => process.stdout.write(text + '\n');
		switch (action) {
			case 'status': {
				const status = await readStatus(ledger, values.name);
				const listed =
					runs.length > 0
						? `${runs[0].replace(/-\d{8}T\d{6}Z$/, '')} has ${runs.length} run${runs.length === 1 ? '' : 's'}, latest first: ${runs.join(', ')}; showing the latest, ${runs[0]}\n`
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
				const counts = record ? await ledger.counts(values.name) : undefined;
				const sent = counts ? sentRows(counts.rows) : 0;
				if (sent > 0 && !values.force) {
					throw new UsageError(
						`campaign ${values.name} has sent ${sent} messages (or may have): deleting it forgets them, and a new campaign of that name in this ledger could send them again. Add --force to delete it anyway`,
					);
				}
				const reclaimed = await inOwnWords(control().delete(values.name, values.purge));
				say(
					`deleted campaign ${values.name} (${counts?.total ?? 0} rows${sent > 0 ? `, ${sent} of them sent or uncertain` : ', none sent'}): the name is free`,
				);
				say(purgeNote(db, reclaimed));
				return 0;
			}
			case 'pause':
				if (phase === 'cancelled' || phase === 'finished')
					throw new FatalError(`campaign ${values.name} is ${phase}: there is nothing to pause`);
				await control().pause(values.name);
				say(
					live
						? `paused campaign ${values.name}: the run (pid ${live.pid}) stops after the batches in flight and waits`
						: `paused campaign ${values.name}`,
				);
				return 0;
			case 'resume':
				if (phase === 'cancelled')
					throw new FatalError(`campaign ${values.name} was cancelled and cannot be resumed`);
				await control().resume(values.name);
				say(
					live
						? `resumed campaign ${values.name}: the run (pid ${live.pid}) continues`
						: api
							? `resumed campaign ${values.name}: the worker running the campaign API goes on with it`
							: `resumed campaign ${values.name}: no run is active, so run \`cloudtel campaign run --db ${dbPath} --name ${values.name}\` to continue sending`,
				);
				return 0;
			case 'cancel': {
				if (phase === 'finished')
					throw new FatalError(`campaign ${values.name} has finished: there is nothing to cancel`);
				const outcome = await control().cancel(
					values.name,
					'cancelled with `cloudtel campaign cancel`',
				);
				// With a live run, it cancels its own pending rows once its batches in flight settle.
				if (outcome.live) {
					say(
						live
							? `cancelled campaign ${values.name}: the run (pid ${live.pid}) stops after the batches in flight`
							: `cancelled campaign ${values.name}: its run stops after the batches in flight`,
					);
					return 0;
				}
				const { cancelled: n, uncertain } = outcome;
				say(
					`cancelled campaign ${values.name}: ${n} rows will not be sent` +
						(uncertain > 0 ? `; ${uncertain} rows a stopped run was submitting are uncertain` : ''),
				);
				return 0;
			}
		}
		// Every action returned above; the compiler does not see it through the store's try.
		const unknown: never = action;
		throw new UsageError(`no such action: ${String(unknown)}`);
	} finally {
		await store?.close();
		await ledger.close();
	}
}

/** A refusal the API words for its callers, said as the CLI says its own. */
async function inOwnWords<T>(action: Promise<T>): Promise<T> {
	try {
		return await action;
	} catch (error) {
		if (error instanceof ApiError) throw new FatalError(error.message);
		throw error;
	}
}
