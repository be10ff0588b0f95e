import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DbLocation } from '../../storage/dbLocation';

/**
 * Where a worker writes the CSV of an API campaign it runs, made from the pages in the
 * database (the engine reads a CSV): beside the SQLite file, or for Postgres one folder
 * per database under ~/.cloudtel/api. Every worker on one database must find the same
 * path (it is part of the campaign's spec), so run them as the same user.
 */
export function apiCampaignDir(location: DbLocation): string {
	if (location.kind === 'sqlite') return `${resolve(location.path)}.api`;
	const id = createHash('sha256').update(location.shown).digest('hex').slice(0, 16);
	return join(homedir(), '.cloudtel', 'api', id);
}

export function apiCampaignCsvPath(dir: string, name: string): string {
	return join(dir, `${name}.csv`);
}
