import { FatalError } from '../errors';
import { SCHEMA_VERSION, schemaSql } from './schema';
import { UPGRADES } from './schemaUpgrades';
import { get, run, type Dialect, type Work } from './work';

/**
 * The schema's one runner, for both backends, as units of work their openers drive (SQLite
 * synchronously, in a constructor; Postgres on one connection). `where` names the file or
 * database in errors, e.g. "the ledger /x/ledger.db" or "Postgres postgres://host/db".
 */

/** Why the reading commands refuse a schema they would have to create or upgrade. */
const ONLY_READ = '(campaign status and report only read)';

/** The last version applied; before cloudtel_schema (SQLite releases), meta's 'schema'; undefined where none. */
function* version(d: Dialect): Work<number | undefined> {
	if (yield* get(d.tableExists, 'cloudtel_schema'))
		return (
			(yield* get<{ v: number | null }>('SELECT MAX(version) AS v FROM cloudtel_schema'))!.v ??
			undefined
		);
	if (!(yield* get(d.tableExists, 'meta'))) return undefined;
	const v = yield* get<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema'`);
	return v === undefined ? undefined : Number(v.value);
}

/** Refuses what this build cannot open: a newer schema, or a development build's older than the release. */
function refuseUnknown(d: Dialect, v: number | undefined, where: string): void {
	if (v === undefined) return;
	if (v > SCHEMA_VERSION)
		throw new FatalError(
			`${where} holds cloudtel schema ${v}, newer than this cloudtel knows (${SCHEMA_VERSION}): upgrade cloudtel on this machine`,
		);
	const release = UPGRADES[d.name].release;
	if (v < release) {
		throw new FatalError(
			`${where} holds cloudtel schema ${v}, made by a development build before the first release (schema ${release}): this cloudtel cannot upgrade it and left it unchanged. Finish or export its campaigns with the build that made it, or start a new ledger elsewhere`,
		);
	}
}

/**
 * Checks the schema without writing anything (a database already up to date needs no
 * rights to create); whether it must be made or upgraded. `readonly` (status, report)
 * refuses one that would.
 */
export function* checkSchema(d: Dialect, where: string, readonly: boolean): Work<boolean> {
	const v = yield* version(d);
	refuseUnknown(d, v, where);
	if (v === SCHEMA_VERSION) return false;
	if (!readonly) return true;
	if (v === undefined)
		throw new FatalError(
			`${where} holds no cloudtel tables: no campaign has run there yet ${ONLY_READ}`,
		);
	throw new FatalError(
		`${where} holds cloudtel schema ${v}, older than this cloudtel's (${SCHEMA_VERSION}): start \`cloudtel worker\` or a \`cloudtel campaign run\` on it once to upgrade it ${ONLY_READ}`,
	);
}

/**
 * Makes the schema, or moves it to this version one step at a time, in the caller's write
 * transaction: another process may have done it meanwhile, so the version is read again
 * under its lock, and a failed step leaves it as it was.
 */
export function* migrateSchema(d: Dialect, where: string): Work<void> {
	const v = yield* version(d);
	refuseUnknown(d, v, where);
	if (v === SCHEMA_VERSION) return;
	const record = (version: number) =>
		run(
			'INSERT INTO cloudtel_schema (version, applied_at) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING',
			version,
			Date.now(),
		);
	if (v === undefined) {
		yield* run(schemaSql(d));
		yield* record(SCHEMA_VERSION);
	} else {
		for (const step of UPGRADES[d.name].steps) {
			if (step.version <= v) continue;
			yield* step.work();
			yield* record(step.version);
		}
		// A SQLite release file had no cloudtel_schema (its version was meta's) until a step made it.
		yield* record(v);
	}
	yield* run(
		`INSERT INTO meta (key, value) VALUES ('schema', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		String(SCHEMA_VERSION),
	);
}
