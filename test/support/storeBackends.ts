import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { dbLocation, type DbLocation } from '../../worker/src/storage/dbLocation';
import { newDatabase, sql } from './postgres/database';

/** Where a suite's stores live, for `describe.each`. */
export interface StoreBackend {
	name: 'sqlite' | 'postgres';
	/** The same location for every call within one test, a fresh one for the next test. */
	location(): DbLocation;
}

const TABLES =
	'campaigns, recipients, submissions, deliveries, answers, message_sids, meta, replies, suppressions, consent_events, callback_events, forwards, campaign_runs, workers, pacing, api_campaigns, api_pages, variant_decisions';

/** `backend`'s store for this test as the CLI's `--db` takes it: the SQLite file's path or the postgres:// URL. */
export function dbArg(backend: StoreBackend): string {
	const location = backend.location();
	return location.kind === 'sqlite' ? location.path : location.url;
}

/**
 * Both backends, with the hooks that give each test an empty store: a new SQLite file
 * per test; for Postgres one database per test file (the run shares one server), emptied
 * before each test. Call at the top level of a test file.
 */
export function storeBackends(): StoreBackend[] {
	const dirs: string[] = [];
	let sqlitePath = '';
	let pgUrl = '';
	beforeAll(async () => {
		pgUrl = await newDatabase('store');
	});
	beforeEach(async () => {
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-store-'));
		dirs.push(dir);
		sqlitePath = join(dir, 'worker.db');
		// The schema exists once a store has opened the database.
		const [{ t }] = await sql<{ t: string | null }>(
			pgUrl,
			`SELECT to_regclass('campaigns')::text AS t`,
		);
		if (t !== null) await sql(pgUrl, `TRUNCATE ${TABLES} RESTART IDENTITY`);
	});
	afterAll(() => {
		for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
	});
	return [
		{ name: 'sqlite', location: () => ({ kind: 'sqlite', path: sqlitePath }) },
		{ name: 'postgres', location: () => dbLocation(pgUrl) },
	];
}
