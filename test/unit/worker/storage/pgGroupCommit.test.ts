import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../../../worker/src/storage/postgres/pgDatabase';
import { PgDb } from '../../../../worker/src/storage/postgres/pgDb';
import { newDatabase, postgresAt, sql } from '../../../support/postgres/database';

let url: string;
let db: PgDb | undefined;
beforeAll(async () => {
	url = await newDatabase('groupcommit');
	// Each row says which transaction wrote it.
	await sql(
		url,
		'CREATE TABLE written (id integer PRIMARY KEY, tx bigint NOT NULL DEFAULT txid_current())',
	);
});
afterEach(async () => {
	await db?.close();
	await sql(url, 'DELETE FROM written');
});

async function open(): Promise<PgDb> {
	return (db = new PgDb(await openPostgres(postgresAt(url))));
}

const insert = (id: number) => [['INSERT INTO written (id) VALUES ($1)', id] as const];

describe('grouped and synced writes on Postgres', () => {
	it('share commits when they come together: every write stored, in far fewer transactions than writes', async () => {
		const pg = await open();
		const changed = await Promise.all(
			Array.from({ length: 300 }, (_, i) =>
				pg.write(insert(i), i % 2 === 0 ? 'grouped' : 'synced'),
			),
		);
		expect(changed).toEqual(Array.from({ length: 300 }, () => [1]));
		const rows = await sql<{ id: number; tx: string }>(
			url,
			'SELECT id, tx FROM written ORDER BY id',
		);
		expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 300 }, (_, i) => i));
		const transactions = new Set(rows.map((r) => r.tx)).size;
		// The first goes alone; those that came meanwhile share the next.
		expect(transactions).toBeLessThanOrEqual(3);
	});

	it('a write that fails takes none of those it was gathered with down: each other is stored, it alone rejects', async () => {
		const pg = await open();
		await pg.write(insert(7));
		const outcomes = await Promise.allSettled(
			Array.from({ length: 20 }, (_, i) => pg.write(insert(i), 'grouped')),
		);
		const failed = outcomes.flatMap((o, i) =>
			o.status === 'rejected' ? [{ i, code: (o.reason as { code?: string }).code }] : [],
		);
		expect(failed).toEqual([{ i: 7, code: '23505' }]);
		const rows = await sql<{ id: number }>(url, 'SELECT id FROM written ORDER BY id');
		expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => i));
	});

	it('an ordinary write still commits on its own', async () => {
		const pg = await open();
		await Promise.all([pg.write(insert(1)), pg.write(insert(2))]);
		const rows = await sql<{ tx: string }>(url, 'SELECT tx FROM written');
		expect(new Set(rows.map((r) => r.tx)).size).toBe(2);
	});
});
