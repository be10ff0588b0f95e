import type { Ledger } from '../ledger/ledger';
import { SqliteLedger } from './sqlite/sqliteLedger';
import type { DbLocation } from './dbLocation';
import { openPostgres } from './postgres/pgDatabase';
import type { ApiCampaignStore } from './apiCampaignStore';
import { PgApiCampaignStore } from './postgres/pgApiCampaignStore';
import { SqliteApiCampaignStore } from './sqlite/sqliteApiCampaignStore';

/** The API campaigns beside the ledger: in its SQLite file (on its connection, when given), or in its Postgres. */
export async function openApiCampaignStore(location: DbLocation, ledger?: Ledger): Promise<ApiCampaignStore> {
	if (location.kind === 'postgres') return new PgApiCampaignStore(await openPostgres(location));
	return new SqliteApiCampaignStore(location.path, ledger instanceof SqliteLedger ? ledger.connection() : undefined);
}
