/**
 * A unit of work on the ledger, written once for both backends as a generator that yields
 * its statements: SQLite runs it synchronously inside one better-sqlite3 transaction (no
 * other code can slip a statement in between), Postgres statement by statement on one
 * connection. Statements use Postgres's `$n` placeholders; SQLite binds them as named
 * parameters.
 */
export interface Statement {
	kind: 'all' | 'get' | 'run' | 'raw';
	sql: string;
	args: unknown[];
}

export type Work<T> = Generator<Statement, T, unknown>;

export function* all<T>(sql: string, ...args: unknown[]): Work<T[]> {
	return (yield { kind: 'all', sql, args }) as T[];
}

export function* get<T>(sql: string, ...args: unknown[]): Work<T | undefined> {
	return (yield { kind: 'get', sql, args }) as T | undefined;
}

/** Rows as arrays in SELECT order: one object per row fewer, on the send path. */
export function* raw<T extends unknown[]>(sql: string, ...args: unknown[]): Work<T[]> {
	return (yield { kind: 'raw', sql, args }) as T[];
}

/** Returns how many rows it changed. */
export function* run(sql: string, ...args: unknown[]): Work<number> {
	return (yield { kind: 'run', sql, args }) as number;
}

/**
 * How a transaction commits: `write` durably where the backend syncs commits, `lazy` without
 * waiting for the disk (a settle: a lost one is recovered as uncertain), `read` for figures
 * of one moment, `erase` so erased content is overwritten, not left in free pages.
 * `grouped`: SQLite gathers the grouped writes of one turn of the event loop into one
 * transaction, each in its own savepoint (a power cut may lose them, a crash of the process
 * may not); `synced`: the same, on disk before it resolves, several sharing one fsync.
 * Postgres's commits are on disk when made: there both are the writes that come while one
 * commits, gathered into the next.
 */
export type TxMode = 'write' | 'lazy' | 'read' | 'erase' | 'grouped' | 'synced';

/** What differs between the backends' SQL, rendered into the statements once per ledger. */
export interface Dialect {
	name: 'sqlite' | 'postgres';
	/** The elements of a JSON array (a parameter or a column of JSON text) as rows `alias(value)`, read with `->> n`. */
	jsonRows(json: string, alias: string): string;
	/** The elements of a JSON array of strings or numbers as rows `alias(value)` of text. */
	jsonTexts(json: string, alias: string): string;
	/** A column holding JSON text, as JSON. */
	json(column: string): string;
	greatest(a: string, b: string): string;
	/** SQLite's planner, without statistics, needs telling; Postgres's does not. */
	indexedBy(index: string): string;
	/** Whether `haystack` contains `needle`. */
	contains(haystack: string, needle: string): string;
	/** Whether the table named by $1 exists. */
	tableExists: string;
	/** The database's clock, in Unix milliseconds: one clock for every machine that shares it. */
	nowMs: string;
	/** A statement holding the transaction-long lock named by $1 (shared or not), where writers can run at once; SQLite has one writer. */
	lock?: string;
	lockShared?: string;
}

export const SQLITE: Dialect = {
	name: 'sqlite',
	jsonRows: (json, alias) => `json_each(${json}) AS ${alias}`,
	jsonTexts: (json, alias) => `json_each(${json}) AS ${alias}`,
	json: (column) => column,
	greatest: (a, b) => `MAX(${a}, ${b})`,
	indexedBy: (index) => `INDEXED BY ${index}`,
	contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
	tableExists: `SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = $1`,
	nowMs: `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`,
};

export const POSTGRES: Dialect = {
	name: 'postgres',
	jsonRows: (json, alias) => `json_array_elements(${json}::json) AS ${alias}(value)`,
	jsonTexts: (json, alias) => `json_array_elements_text(${json}::json) AS ${alias}(value)`,
	json: (column) => `${column}::json`,
	greatest: (a, b) => `GREATEST(${a}, ${b})`,
	indexedBy: () => '',
	contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`,
	// pg_class read by the statement's own snapshot: to_regclass answers from a cache that an
	// advisory lock does not refresh, so a worker that waited on the migration lock missed the tables made meanwhile.
	tableExists: `SELECT 1 AS found FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = $1 AND n.nspname = current_schema()`,
	nowMs: `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`,
	lock: `SELECT pg_advisory_xact_lock(hashtext($1))`,
	lockShared: `SELECT pg_advisory_xact_lock_shared(hashtext($1))`,
};

/**
 * A backend's connection, running units of work: sqlite/sqliteDb.ts (one connection, WAL
 * sync, group commit) and postgres/pgDb.ts (a pool several workers share). Every store runs on it.
 */
export interface SqlDb {
	readonly dialect: Dialect;
	/** Each statement on its own, in no transaction. */
	run<T>(work: Work<T>): Promise<T>;
	tx<T>(work: Work<T>, mode?: TxMode): Promise<T>;
	/** A transaction, resolved once committed, with `durable`, resolved once its commit is on disk. */
	durableTx<T>(work: Work<T>): Promise<{ result: T; durable: Promise<void> }>;
	/** Runs the steps in one transaction (one statement alone, on Postgres); the rows each changed, 0 for one skipped. */
	write(list: readonly Step[], mode?: TxMode): Promise<number[]>;
	/** Every commit so far is on disk when it resolves (SQLite's WAL synced; Postgres's commits already are). */
	sync(): Promise<void>;
	/**
	 * Runs `work` while no other process sharing the database runs work under the same
	 * `name`; 'busy' at once when one does. A SQLite file has one worker: `work` just runs.
	 */
	alone<T>(name: string, work: () => Promise<T>): Promise<T | 'busy'>;
	/**
	 * After an erasure: the database rewritten so that what was deleted is in none of its
	 * bytes (SQLite: VACUUM, the WAL emptied; Postgres: these tables vacuumed). False when
	 * another process kept part of it from being done (SQLite: a reader held the WAL).
	 */
	reclaim(tables: readonly string[]): Promise<boolean>;
	close(): Promise<void>;
}

/** A statement and its arguments, `$1` first. */
export type Write = readonly [sql: string, ...args: unknown[]];

/**
 * A step of a write: a statement, or one chosen from the rows the steps before it changed
 * (undefined to skip it), such as events queued only by the insert that made a run.
 */
export type Step = Write | ((changed: readonly number[]) => Write | undefined);

/** Steps as a unit of work: the rows each changed (0 for one skipped). */
export function* steps(list: readonly Step[]): Work<number[]> {
	const changed: number[] = [];
	for (const step of list) {
		const write = typeof step === 'function' ? step(changed) : step;
		changed.push(write ? yield* run(write[0], ...write.slice(1)) : 0);
	}
	return changed;
}

/** Drives a unit of work, each statement run by `exec`, synchronously. */
export function driveSync<T>(work: Work<T>, exec: (s: Statement) => unknown): T {
	let step = work.next();
	while (!step.done) step = work.next(exec(step.value));
	return step.value;
}

/** Drives a unit of work, each statement run by `exec`, one after another. */
export async function driveAsync<T>(
	work: Work<T>,
	exec: (s: Statement) => Promise<unknown>,
): Promise<T> {
	let step = work.next();
	while (!step.done) step = work.next(await exec(step.value));
	return step.value;
}
