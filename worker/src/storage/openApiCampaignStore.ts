import type { Ledger } from './ledger';
import { openDatabase } from './sqlite/openDatabase';
import { SqliteLedger } from './sqlite/sqliteLedger';
import type { ApiCampaignStore } from './apiCampaignStore';
import type { DbLocation } from './dbLocation';
import { openPostgres } from './postgres/pgDatabase';
import { PgDb } from './postgres/pgDb';
import { SqlApiCampaignStore } from './sqlApiCampaignStore';
import { SqliteDb } from './sqlite/sqliteDb';

/** The API campaigns beside the ledger: in its SQLite file (on its connection, when given), or in its Postgres. */
export async function openApiCampaignStore(location: DbLocation, ledger?: Ledger): Promise<ApiCampaignStore> {
	if (location.kind === 'postgres') return new SqlApiCampaignStore(new PgDb(await openPostgres(location)));
	const lent = ledger instanceof SqliteLedger ? ledger.connection() : undefined;
	return new SqlApiCampaignStore(new SqliteDb(lent ?? openDatabase(location.path, "the worker's database"), location.path, !lent));
}
