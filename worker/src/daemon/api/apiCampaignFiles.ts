import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DbLocation } from '../../storage/dbLocation';

/**
 * The folder of a worker's API files (an uploaded CSV waits there while it is read): beside
 * the SQLite file, or for Postgres one folder per database under ~/.cloudtel/api.
 */
export function apiCampaignDir(location: DbLocation): string {
	if (location.kind === 'sqlite') return `${resolve(location.path)}.api`;
	const id = createHash('sha256').update(location.shown).digest('hex').slice(0, 16);
	return join(homedir(), '.cloudtel', 'api', id);
}
