import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../../worker/src/storage/postgres/pgDatabase';
import { newDatabase, postgresAt, sql } from '../../support/postgres/database';

describe('workers started together on an empty Postgres', () => {
	it('all come up, four at once, twenty times: the one that waited for the lock sees the schema the first made', async () => {
		for (let round = 0; round < 20; round++) {
			const url = await newDatabase('migrate');
			const opened = await Promise.allSettled(
				Array.from({ length: 4 }, () => openPostgres(postgresAt(url))),
			);
			for (const o of opened) if (o.status === 'fulfilled') await o.value.end();
			const failures = opened.flatMap((o) =>
				o.status === 'rejected' ? [String((o.reason as Error).message)] : [],
			);
			expect(failures, `round ${round}`).toEqual([]);
			expect(await sql(url, 'SELECT version FROM cloudtel_schema')).toHaveLength(1);
		}
	});
});
