import type { Ledger } from './ledger';
import type { ApiCampaignStore } from './apiCampaignStore';
import type { DbLocation } from './dbLocation';
import { sqlDbBeside } from './openStores';
import { SqlApiCampaignStore } from './sqlApiCampaignStore';

/** The API campaigns beside the ledger: in its SQLite file (on its connection, when given), or in its Postgres. */
export async function openApiCampaignStore(
	location: DbLocation,
	ledger?: Ledger,
): Promise<ApiCampaignStore> {
	return new SqlApiCampaignStore(await sqlDbBeside(location, ledger));
}
