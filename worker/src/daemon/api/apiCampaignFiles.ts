import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
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

/**
 * An older worker wrote each API campaign's recipients here as `<name>.csv` (and `.part`s
 * of it): nothing reads them now and `contact forget` no longer reaches them, so they go.
 */
export async function removeRecipientCopies(dir: string): Promise<void> {
	const names = await readdir(dir).catch(() => [] as string[]);
	for (const name of names.filter((n) => /\.csv($|\.)/.test(n)))
		await rm(join(dir, name), { force: true });
}
