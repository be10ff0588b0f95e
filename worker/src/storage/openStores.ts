import type { DaemonStore } from './daemonStore';
import type { DbLocation } from './dbLocation';
import { PgCluster } from './postgres/pgCluster';
import { PgDb } from './postgres/pgDb';
import { openPostgres } from './postgres/pgDatabase';
import { SqlDaemonStore } from './sqlDaemonStore';
import { SqliteDb } from './sqlite/sqliteDb';
import type { SqlDb } from './work';
import type { Ledger, LedgerReader } from './ledger';
import { openDatabase } from './sqlite/openDatabase';
import { PgLedger } from './postgres/pgLedger';
import type { SharedLedger } from './sharedLedger';
import { RidingOutRestarts } from './postgres/ridingOutRestarts';
import { SqliteLedger } from './sqlite/sqliteLedger';
import type { LinkStore } from './linkStore';
import { SqlLedger } from './sqlLedger';

/**
 * The ledger at `--db` / `db`: a SQLite file, or Postgres (checked and migrated first).
 * `readonly` (campaign status, report) writes nothing, schema included: a SQLite file
 * the user may not write to, a Postgres role that may only SELECT.
 */
export async function openLedger(
	location: DbLocation,
	options: { readonly?: boolean } = {},
): Promise<Ledger> {
	return location.kind === 'postgres'
		? new PgLedger(await openPostgres(location, options))
		: new SqliteLedger(location.path, options);
}

/**
 * The ledger a campaign run sends on: on Postgres it rides out a restart of the database
 * (a call lost with its connection is made again, `onLost` told of each wait), so a run
 * waits for its database rather than failing; a SQLite file has no connection to lose.
 */
export async function openRunLedger(
	location: DbLocation,
	onLost: (waitedMs: number, error: Error) => void,
): Promise<Ledger> {
	return location.kind === 'postgres'
		? new RidingOutRestarts(new PgLedger(await openPostgres(location)), onLost)
		: openLedger(location);
}

/** The daemon's events, outbox and runs, beside the ledger (sqlDbBeside). */
export async function openDaemonStore(location: DbLocation, ledger?: Ledger): Promise<DaemonStore> {
	return new SqlDaemonStore(await sqlDbBeside(location, ledger));
}

/** The database a store beside the ledger runs on: its Postgres, or its SQLite file, on the ledger's own connection when given (see SqliteLedger.connection). */
export async function sqlDbBeside(location: DbLocation, ledger?: Ledger): Promise<SqlDb> {
	if (location.kind === 'postgres') return new PgDb(await openPostgres(location));
	const lent = ledger instanceof SqliteLedger ? ledger.connection() : undefined;
	return new SqliteDb(
		lent ?? openDatabase(location.path, "the worker's database"),
		location.path,
		!lent,
	);
}

/** The leases of the workers sharing a Postgres; none for a SQLite file, which one worker has to itself. */
export async function openCluster(location: DbLocation): Promise<PgCluster | undefined> {
	return location.kind === 'postgres' ? new PgCluster(await openPostgres(location)) : undefined;
}

/**
 * The ledger as several workers share it, where it can be (Postgres): the daemon's runs
 * then claim their chunks from it. The one place besides the openers that knows the backends.
 */
export function sharedLedgerOf(ledger: Ledger): SharedLedger | undefined {
	return ledger instanceof PgLedger || ledger instanceof RidingOutRestarts ? ledger : undefined;
}

/** Tracked links and their clicks, on the ledger's own connection. */
export function linkStoreOf(ledger: LedgerReader): LinkStore {
	if (!(ledger instanceof SqlLedger)) throw new Error('tracked links need a SQL ledger');
	return ledger.links();
}
