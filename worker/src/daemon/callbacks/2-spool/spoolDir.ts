import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { resolve, join } from 'node:path';
import type { DbLocation } from '../../../storage/dbLocation';

/**
 * The folder of a worker's spool files, unless the config names one: beside its SQLite
 * file, or, for Postgres, one folder per database under ~/.cloudtel/spool, so a spool a
 * dead process left is fed into the database it was meant for and no other.
 */
export function spoolDir(configured: string | undefined, location: DbLocation): string {
	if (configured) return resolve(configured);
	if (location.kind === 'sqlite') return `${resolve(location.path)}.spool`;
	const id = createHash('sha256').update(location.shown).digest('hex').slice(0, 16);
	return join(homedir(), '.cloudtel', 'spool', id);
}
