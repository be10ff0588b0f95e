/**
 * What a store needs of its database, whichever it is: statements are written once, in
 * Postgres's dialect (`$n` placeholders; SQLite binds them as named parameters), and the
 * adapters hold what truly differs: sqlite/sqliteDb.ts (one connection, WAL sync, group
 * commit) and postgres/pgDb.ts (a pool shared by several workers).
 */
export interface SqlDb {
	readonly dialect: Dialect;
	all<T>(sql: string, ...args: unknown[]): Promise<T[]>;
	/** Runs the steps in one transaction, in order; resolves with the rows each changed (0 for a step skipped). */
	write(steps: readonly Step[], commit?: Commit): Promise<number[]>;
	/** Every commit so far is on disk when it resolves (SQLite's WAL synced; Postgres's commits already are). */
	sync(): Promise<void>;
	close(): Promise<void>;
}

export type Dialect = 'sqlite' | 'postgres';

/** A statement and its arguments, `$1` first. */
export type Write = readonly [sql: string, ...args: unknown[]];

/**
 * A step of a write: a statement, or one chosen from the rows the steps before it changed
 * (undefined to skip it), such as events queued only by the insert that made a run.
 */
export type Step = Write | ((changed: readonly number[]) => Write | undefined);

/** The statement of a step, given the rows the steps before it changed. */
export function stepWrite(step: Step, changed: readonly number[]): Write | undefined {
	return typeof step === 'function' ? step(changed) : step;
}

/**
 * How a write commits. Alone (the default): its own transaction, now. `durable`: on disk
 * before it resolves (SQLite gathers the writes of one turn of the event loop into one
 * transaction and one fsync). `grouped`: gathered the same way, without the fsync: a power
 * cut may lose it, a crash of the process may not.
 */
export type Commit = 'durable' | 'grouped';

/**
 * A JSON array of arrays as rows, each read as `value->>0`, `value->>1`...: one statement
 * for a whole batch, with a fixed text (no placeholders counted per row).
 */
export function jsonRows(dialect: Dialect, param: string): string {
	return dialect === 'postgres' ? `json_array_elements(${param}::json) AS rows(value)` : `json_each(${param})`;
}
