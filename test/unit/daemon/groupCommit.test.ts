import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

	it('after a slow commit, writes of later turns wait for each other and share one commit', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-group-'));
		const db = new Database(join(dir, 'g.db'));
		db.pragma('journal_mode = WAL');
		db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
		const insert = db.prepare('INSERT INTO t VALUES (?)');
		const group = new GroupCommit(db);
		const turn = () => new Promise((r) => setImmediate(r));

		// Quick commits: each turn's write goes at the next turn, in a commit of its own.
		await group.run(() => insert.run('a'));
		await turn();
		const quick = group.commits;
		const spread = [];
		for (const k of ['b', 'c', 'd']) {
			spread.push(group.run(() => insert.run(k)));
			await Promise.all(spread);
		}
		expect(group.commits - quick).toBe(3);

		// A commit that takes 30 ms (a busy disk): the next writes come a turn apart, yet share one.
		await group.run(() => {
			const until = performance.now() + 30;
			while (performance.now() < until);
			return insert.run('slow');
		});
		const before = group.commits;
		const burst = [];
		for (const k of ['e', 'f', 'g', 'h']) {
			burst.push(group.run(() => insert.run(k)));
			await turn();
		}
		await Promise.all(burst);
		expect(group.commits - before).toBe(1);
		expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(9);
		db.close();
	});
});
