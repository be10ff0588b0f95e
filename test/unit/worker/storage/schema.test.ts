import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { FatalError } from '../../../../worker/src/errors';
import { openDaemonStore } from '../../../../worker/src/storage/openStores';
import { openPostgres } from '../../../../worker/src/storage/postgres/pgDatabase';
import { SCHEMA_VERSION } from '../../../../worker/src/storage/schema';
import { SqliteLedger } from '../../../../worker/src/storage/sqlite/sqliteLedger';
import { newDatabase, postgresAt, sql } from '../../../support/postgres/database';
import { tempDir } from '../../../support/tempDir';

/**
 * The schema is written once (storage/schema.ts) and rendered per backend: a new SQLite
 * file and a new Postgres database hold the same tables and columns, and a release's file
 * or database, once upgraded, holds what a new one does. Anything older than the release
 * is refused and left as it was.
 */
const release = join(__dirname, '../../../fixtures/ledgerRelease');
const dir = tempDir('cloudtel-schema-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Only a database several workers share has these: a SQLite file has one worker. */
const SHARED_ONLY = ['pacing', 'workers'];

type Column = { name: string; type: string; notNull: boolean; key: boolean };
type Index = { name: string; columns: string; where: string };

/** Every table's columns and indexes in a SQLite file. */
function sqliteTables(path: string): { columns: Record<string, Column[]>; indexes: Index[] } {
	const db = new Database(path, { readonly: true });
	try {
		const columns: Record<string, Column[]> = {};
		for (const table of db
			.prepare(
				`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
			)
			.pluck()
			.all() as string[]) {
			const info = db
				.prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?)`)
				.all(table) as { name: string; type: string; notnull: number; pk: number }[];
			columns[table] = info
				.map((c) => ({
					name: c.name,
					type: c.type,
					notNull: c.notnull === 1 || c.pk > 0,
					key: c.pk > 0,
				}))
				.sort((a, b) => a.name.localeCompare(b.name));
		}
		const indexes = (
			db
				.prepare(
					`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`,
				)
				.all() as { name: string; tbl_name: string; sql: string }[]
		).map((i) => ({
			name: i.name,
			columns: `${i.tbl_name} (${(db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all(i.name) as string[]).join(', ')})`,
			where: / WHERE (.*)$/s.exec(i.sql)?.[1] ?? '',
		}));
		return { columns, indexes };
	} finally {
		db.close();
	}
}

/** The same of a Postgres database. */
async function postgresTables(
	url: string,
): Promise<{ columns: Record<string, Column[]>; indexes: Index[] }> {
	const rows = await sql<{
		table_name: string;
		column_name: string;
		data_type: string;
		is_nullable: string;
		key: boolean;
	}>(
		url,
		`SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, EXISTS (SELECT 1 FROM information_schema.key_column_usage k JOIN information_schema.table_constraints t USING (constraint_name, table_name)
			WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name AND k.column_name = c.column_name) AS key
		 FROM information_schema.columns c WHERE c.table_schema = 'public' ORDER BY c.table_name, c.column_name`,
	);
	const columns: Record<string, Column[]> = {};
	for (const r of rows)
		(columns[r.table_name] ??= []).push({
			name: r.column_name,
			type: r.data_type,
			notNull: r.is_nullable === 'NO',
			key: r.key,
		});
	for (const list of Object.values(columns)) list.sort((a, b) => a.name.localeCompare(b.name));
	const indexes = (
		await sql<{ indexname: string; indexdef: string }>(
			url,
			`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key' ORDER BY indexname`,
		)
	).map((i) => {
		const [, table, cols, where] =
			/ON public\.(\w+) USING btree \(([^)]*)\)(?: WHERE \((.*)\))?$/.exec(i.indexdef)!;
		return { name: i.indexname, columns: `${table} (${cols})`, where: where ?? '' };
	});
	return { columns, indexes };
}

/** A new SQLite file, made by the ledger as a user's first run would. */
async function freshSqlite(): Promise<string> {
	const path = join(dir, `fresh-${Math.random().toString(36).slice(2)}.db`);
	await new SqliteLedger(path).close();
	return path;
}

async function freshPostgres(): Promise<string> {
	const url = await newDatabase('fresh');
	await (await openPostgres(postgresAt(url))).end();
	return url;
}

describe('the schema, written once', () => {
	it('makes the same tables and columns in a new SQLite file and a new Postgres database', async () => {
		const lite = sqliteTables(await freshSqlite());
		const pg = await postgresTables(await freshPostgres());
		expect(Object.keys(lite.columns).sort()).toEqual(
			Object.keys(pg.columns).filter((t) => !SHARED_ONLY.includes(t)),
		);
		expect(Object.keys(lite.columns)).toContain('api_pages');
		expect(Object.keys(lite.columns)).toContain('forwards');
		// Of the same type, as each backend stores it: SQLite's INTEGER is 64 bits, and holds booleans as 0 and 1.
		const asSqlite: Record<string, string> = {
			bigint: 'INTEGER',
			integer: 'INTEGER',
			boolean: 'INTEGER',
			text: 'TEXT',
		};
		for (const table of Object.keys(lite.columns))
			expect(lite.columns[table], table).toEqual(
				pg.columns[table].map((c) => ({ ...c, type: asSqlite[c.type] ?? c.type })),
			);
		// The same indexes too, but for Postgres's pending rows (SQLite reads them in key order).
		const liteIndexes = lite.indexes.map((i) => i.name);
		expect(liteIndexes).toEqual(
			pg.indexes.map((i) => i.name).filter((name) => name !== 'recipients_pending'),
		);
		// Each stamped with this version.
		expect(await sql(await freshPostgres(), 'SELECT version FROM cloudtel_schema')).toEqual([
			{ version: SCHEMA_VERSION },
		]);
	});

	it('upgrades a release SQLite file to what a new file holds', async () => {
		const path = join(dir, 'release.db');
		copyFileSync(join(release, 'ledger.db'), path);
		await new SqliteLedger(path).close();
		const upgraded = sqliteTables(path);
		const fresh = sqliteTables(await freshSqlite());
		// The one column a release file keeps rather than be rewritten (unused since schema 3).
		upgraded.columns.recipients = upgraded.columns.recipients.filter((c) => c.name !== 'chunk');
		expect(upgraded).toEqual(fresh);
	});

	it('upgrades a release SQLite worker file, with the daemon tables it had, to what a new file holds', async () => {
		const path = join(dir, 'release-daemon.db');
		copyFileSync(join(release, 'ledger.db'), path);
		// The release's daemon tables, as its worker made them in the ledger's file.
		const db = new Database(path);
		db.exec(`CREATE TABLE callback_events (event_key TEXT PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL, received_at INTEGER NOT NULL, processed_at INTEGER) WITHOUT ROWID;
			CREATE INDEX callback_events_unprocessed ON callback_events (processed_at, received_at);
			CREATE TABLE forwards (id INTEGER PRIMARY KEY AUTOINCREMENT, event_key TEXT NOT NULL, action_key TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL,
				attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (event_key, action_key));
			CREATE INDEX forwards_due ON forwards (state, next_at);
			CREATE TABLE campaign_runs (run TEXT PRIMARY KEY, campaign TEXT NOT NULL, started_at INTEGER NOT NULL, finished_at INTEGER, outcome TEXT) WITHOUT ROWID;
			INSERT INTO forwards (event_key, action_key, kind, payload, state, next_at, created_at, updated_at) VALUES ('e1', 'a1', 'reply', '{}', 'pending', 5, 1, 1);`);
		db.close();
		const ledger = new SqliteLedger(path);
		const store = await openDaemonStore({ kind: 'sqlite', path }, ledger);
		expect((await store.forwards()).map((f) => f.eventKey)).toEqual(['e1']);
		await store.close();
		await ledger.close();
		const upgraded = sqliteTables(path);
		upgraded.columns.recipients = upgraded.columns.recipients.filter((c) => c.name !== 'chunk');
		expect(upgraded).toEqual(sqliteTables(await freshSqlite()));
	});

	it('upgrades a release Postgres database to what a new one holds', async () => {
		const url = await newDatabase('release');
		await sql(url, readFileSync(join(release, 'postgres.sql'), 'utf8'));
		await (await openPostgres(postgresAt(url))).end();
		expect(await postgresTables(url)).toEqual(await postgresTables(await freshPostgres()));
	});
});

describe('a database holding tables of the same names, not made by cloudtel', () => {
	it('is refused, and left unchanged', async () => {
		const url = await newDatabase('foreign');
		await sql(
			url,
			`CREATE TABLE campaigns (id SERIAL PRIMARY KEY, title TEXT); INSERT INTO campaigns (title) VALUES ('theirs')`,
		);
		const location = postgresAt(url);
		await expect(openPostgres(location)).rejects.toThrow(/campaigns.*already exists/);
		expect(await sql(url, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).toEqual([
			{ tablename: 'campaigns' },
		]);
		expect(await sql(url, 'SELECT title FROM campaigns')).toEqual([{ title: 'theirs' }]);
	});
});

describe('a file or database older than the release', () => {
	it('SQLite: is refused, named, with what to do, and left unchanged', () => {
		const path = join(dir, 'pre-release.db');
		// A development build's schema 6: no import fingerprint on campaigns, no consent trail.
		const db = new Database(path);
		db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema', '6');
			CREATE TABLE campaigns (name TEXT PRIMARY KEY, spec TEXT NOT NULL, phase TEXT NOT NULL, paused INTEGER NOT NULL DEFAULT 0, imported_through INTEGER NOT NULL DEFAULT 0,
				created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, owner_pid INTEGER, owner_host TEXT, owner_token TEXT, heartbeat_at INTEGER);
			INSERT INTO campaigns (name, spec, phase, created_at, updated_at) VALUES ('old', '{}', 'sending', 1, 1);`);
		db.close();
		const before = readFileSync(path);
		for (const readonly of [false, true]) {
			let error: unknown;
			try {
				new SqliteLedger(path, { readonly });
			} catch (e) {
				error = e;
			}
			expect(error).toBeInstanceOf(FatalError);
			expect((error as Error).message).toBe(
				`the ledger ${path} holds cloudtel schema 6, made by a development build before the first release (schema 7): this cloudtel cannot upgrade it and left it unchanged. Finish or export its campaigns with the build that made it, or start a new ledger elsewhere`,
			);
		}
		expect(readFileSync(path).equals(before)).toBe(true);
	});

	it('Postgres: is refused, named, with what to do, and left unchanged', async () => {
		const url = await newDatabase('prerelease');
		// A development build's schema 4: the release's migrations before its fifth.
		const script = readFileSync(join(release, 'postgres.sql'), 'utf8');
		await sql(url, script.slice(0, script.indexOf('-- migration 5')));
		await sql(
			url,
			'INSERT INTO cloudtel_schema (version, applied_at) SELECT v, 0 FROM generate_series(1, 4) v',
		);
		const before = await postgresTables(url);
		const location = postgresAt(url);
		for (const readonly of [false, true]) {
			await expect(openPostgres(location, { readonly })).rejects.toThrow(
				`Postgres ${location.shown} holds cloudtel schema 4, made by a development build before the first release (schema 5): this cloudtel cannot upgrade it and left it unchanged. Finish or export its campaigns with the build that made it, or start a new ledger elsewhere`,
			);
		}
		expect(await postgresTables(url)).toEqual(before);
		expect(await sql(url, 'SELECT MAX(version) AS v FROM cloudtel_schema')).toEqual([{ v: 4 }]);
	});
});

describe('a file newer than this build', () => {
	it('SQLite: is refused, and left unchanged', async () => {
		const path = await freshSqlite();
		const db = new Database(path);
		db.exec('INSERT INTO cloudtel_schema (version, applied_at) VALUES (999, 0)');
		db.close();
		expect(() => new SqliteLedger(path)).toThrow(
			`the ledger ${path} holds cloudtel schema 999, newer than this cloudtel knows (${SCHEMA_VERSION}): upgrade cloudtel on this machine`,
		);
	});
});
