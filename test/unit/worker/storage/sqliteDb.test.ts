import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDb } from '../../../../worker/src/storage/sqlite/sqliteDb';
import { all, run } from '../../../../worker/src/storage/work';
import { tempDir } from '../../../support/tempDir';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(journal: 'wal' | 'delete') {
	const dir = tempDir('cloudtel-sqlitedb-');
	dirs.push(dir);
	const path = join(dir, 'x.db');
	const db = new Database(path);
	db.pragma(`journal_mode = ${journal}`);
	db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
	return { path, db: new SqliteDb(db, path) };
}

/** The SQLite adapter every store runs on: steps, group commits, commits other connections see. */
describe('the SQLite adapter', () => {
	it('runs steps in one transaction, a step chosen from the rows the ones before changed', async () => {
		const { db } = open('wal');
		const insert = [
			'INSERT INTO t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO NOTHING',
			'a',
			1,
		] as const;
		expect(
			await db.write([
				insert,
				([made]) => (made === 1 ? ['UPDATE t SET v = 2 WHERE k = $1', 'a'] : undefined),
			]),
		).toEqual([1, 1]);
		expect(
			await db.write([
				insert,
				([made]) => (made === 1 ? ['UPDATE t SET v = 3 WHERE k = $1', 'a'] : undefined),
			]),
		).toEqual([0, 0]);
		expect(await db.run(all('SELECT k, v FROM t'))).toEqual([{ k: 'a', v: 2 }]);
		await db.close();
	});

	it('gathers grouped writes of one turn, one failing taking no other down', async () => {
		const { db } = open('wal');
		const results = await Promise.allSettled([
			db.tx(run('INSERT INTO t (k, v) VALUES ($1, $2)', 'a', 1), 'grouped'),
			db.tx(run('INSERT INTO t (k, v) VALUES ($1, $2)', 'a', 2), 'grouped'),
			db.tx(run('INSERT INTO t (k, v) VALUES ($1, $2)', 'b', 3), 'synced'),
		]);
		expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
		expect(await db.run(all('SELECT k, v FROM t ORDER BY k'))).toEqual([
			{ k: 'a', v: 1 },
			{ k: 'b', v: 3 },
		]);
		await db.close();
	});

	it('commits a synced write on a file not in WAL mode, for another connection to read', async () => {
		const { path, db } = open('delete');
		expect(await db.tx(run('INSERT INTO t (k, v) VALUES ($1, $2)', 'a', 1), 'synced')).toBe(1);
		const other = new Database(path, { readonly: true });
		expect(other.prepare('SELECT v FROM t WHERE k = ?').get('a')).toEqual({ v: 1 });
		other.close();
		await db.close();
	});
});
