import Database from 'better-sqlite3';
import type { DbLocation } from '../../worker/src/storage/dbLocation';
import { sql } from './postgres/database';

/**
 * The worker's store holds nothing left to send: every callback processed, no forward
 * pending or under way (read as psql or sqlite3 would). A repeat, were one queued, would
 * still be pending or sending; once this holds, every forward has reached its receiver.
 */
export async function storeIdle(location: DbLocation): Promise<boolean> {
	const text = `SELECT (SELECT COUNT(*) FROM callback_events WHERE processed_at IS NULL) + (SELECT COUNT(*) FROM forwards WHERE state IN ('pending', 'sending')) AS n`;
	if (location.kind === 'postgres')
		return Number((await sql<{ n: string }>(location.url, text))[0].n) === 0;
	const d = new Database(location.path, { readonly: true });
	try {
		return (d.prepare(text).get() as { n: number }).n === 0;
	} finally {
		d.close();
	}
}
