import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../worker/src/daemon/groupCommit';

describe('group commit', () => {
	it('commits the writes of one turn together; one that fails takes no other down', async () => {
		const db = new Database(':memory:');
		db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
		const insert = db.prepare('INSERT INTO t VALUES (?)');
		const group = new GroupCommit(db);
		const results = await Promise.allSettled(['a', 'b', 'a', 'c'].map((k) => group.run(() => insert.run(k).changes)));
		expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
		expect(db.prepare('SELECT k FROM t ORDER BY k').pluck().all()).toEqual(['a', 'b', 'c']);
		db.close();
	});
});
