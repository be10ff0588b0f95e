import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../../worker/src/storage/sqlite/groupCommit';
import { WalSync } from '../../../../worker/src/storage/sqlite/walSync';
import { tempDir } from '../../../support/tempDir';

describe('group commit', () => {
	it('commits the writes of one turn together; one that fails takes no other down', async () => {
		const db = new Database(':memory:');
		db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
		const insert = db.prepare('INSERT INTO t VALUES (?)');
		const group = new GroupCommit(db);
		const results = await Promise.allSettled(
			['a', 'b', 'a', 'c'].map((k) => group.run(() => insert.run(k).changes)),
		);
		expect(results.map((r) => r.status)).toEqual([
			'fulfilled',
			'fulfilled',
			'rejected',
			'fulfilled',
		]);
		expect(db.prepare('SELECT k FROM t ORDER BY k').pluck().all()).toEqual(['a', 'b', 'c']);
		db.close();
	});

	it('commits the writes of one turn in one transaction, and resolves durable writes only after a WAL sync begun after their commit', async () => {
		const dir = tempDir('cloudtel-group-');
		const path = join(dir, 'g.db');
		const db = new Database(path);
		db.pragma('journal_mode = WAL');
		db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
		const insert = db.prepare('INSERT INTO t VALUES (?)');
		let finishSync!: () => void;
		let syncs = 0;
		const durable = {
			sync: () => {
				syncs++;
				return new Promise<void>((r) => (finishSync = r));
			},
		} as unknown as WalSync;
		const group = new GroupCommit(db, durable);
		let done = 0;
		const writes = ['a', 'b', 'c'].map((k) => group.run(() => insert.run(k)).then(() => done++));
		await new Promise((r) => setImmediate(r));
		await new Promise((r) => setImmediate(r));
		// Committed (another connection sees the rows) in one transaction, but not yet reported durable.
		const reader = new Database(path, { readonly: true });
		expect(reader.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(3);
		expect(group.commits).toBe(1);
		expect(syncs).toBe(1);
		expect(done).toBe(0);
		finishSync();
		await Promise.all(writes);
		expect(done).toBe(3);
		reader.close();
		db.close();
	});

	it('shares one fsync among callers that come while another is under way', async () => {
		const dir = tempDir('cloudtel-wal-');
		const path = join(dir, 'w.db');
		const db = new Database(path);
		db.pragma('journal_mode = WAL');
		db.exec('CREATE TABLE t (k TEXT)');
		const wal = new WalSync(path);
		// The first starts an fsync; the next three began after it, so they need one more, shared.
		await Promise.all([wal.sync(), wal.sync(), wal.sync(), wal.sync()]);
		expect(wal.syncs).toBe(2);
		await wal.sync();
		expect(wal.syncs).toBe(3);
		db.close();
	});

	it('rejects durable writes when the WAL cannot be synced, so no caller is told they are safe', async () => {
		const dir = tempDir('cloudtel-wal-');
		const db = new Database(join(dir, 'x.db'));
		db.exec('CREATE TABLE t (k TEXT)');
		// Not in WAL mode: there is no WAL file to sync.
		const group = new GroupCommit(db, new WalSync(join(dir, 'x.db')));
		await expect(group.run(() => db.prepare('INSERT INTO t VALUES (1)').run())).rejects.toThrow(
			/ENOENT/,
		);
		db.close();
	});
});
