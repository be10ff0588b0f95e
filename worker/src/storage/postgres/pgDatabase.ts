import type { Pool, PoolClient, PoolConfig } from 'pg';
import { FatalError } from '../../errors';
import type { DbLocation } from '../dbLocation';
import { pgFailure } from './pgFailure';
import { checkSchema, migrateSchema } from '../migrateSchema';
import { POSTGRES, driveAsync, type Statement } from '../work';

type PostgresLocation = Extract<DbLocation, { kind: 'postgres' }>;

/** Any number, so one key for every worker that migrates the same database. */
const MIGRATION_LOCK = 0x636c6f7564;
/** Connections per pool: a worker opens a few pools, and several workers share one server. */
const POOL_SIZE = 4;

/** pg, loaded with the first pool: a run on a SQLite ledger never needs it (~3 MB of heap, ~15 MB resident). */
let pgModule: typeof import('pg') | undefined;
function pg(): typeof import('pg') {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (pgModule ??= require('pg') as typeof import('pg'));
}

// BIGINT (Unix milliseconds, counts) as numbers: every value cloudtel keeps fits in 2^53.
const parsers = {
	getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
		oid === pg().types.builtins.INT8
			? (v: string) => Number(v)
			: pg().types.getTypeParser(oid, format)) as typeof import('pg').types.getTypeParser,
};

/**
 * A pool of connections to the worker's Postgres, checked and migrated before it is
 * handed out: a wrong URL, a refused connection, missing rights or a schema newer than
 * this cloudtel end here as one FatalError line. `readonly` (campaign status, report)
 * migrates nothing and opens every transaction READ ONLY, so a role that may only SELECT
 * can use it and nothing is ever written through it.
 */
export async function openPostgres(
	location: PostgresLocation,
	options: { readonly?: boolean } = {},
): Promise<Pool> {
	const pool = newPool({
		connectionString: location.url,
		...(options.readonly ? { options: '-c default_transaction_read_only=on' } : {}),
	});
	try {
		await transaction(pool, (client) =>
			migrate(client, `Postgres ${location.shown}`, options.readonly === true),
		);
	} catch (error) {
		await pool.end().catch(() => undefined);
		throw error instanceof FatalError ? error : pgFailure(error, location.shown);
	}
	return pool;
}

/**
 * A pool whose connections can never end the process with an error no one hears. The pool
 * listens to an idle connection and each caller to one it holds, but not while a connection
 * passes from one caller to the next: `pool.query` releases it inside the socket's data
 * event, the pool hands it at once to a `pool.connect()` waiting, and that caller listens
 * only a microtask later. An error the server sent in the same packet (a restart's 57P01
 * right after the answer) is parsed in between. The connection is then unusable, and its
 * next query fails as a lost connection, which the callers handle.
 */
export function newPool(config: PoolConfig): Pool {
	const pool = new (pg().Pool)({
		max: POOL_SIZE,
		connectionTimeoutMillis: 10_000,
		types: parsers,
		...config,
	});
	pool.on('connect', (client) => client.on('error', () => undefined));
	// An idle connection the server drops: the pool has thrown it away, the next query reconnects.
	pool.on('error', () => undefined);
	return pool;
}

/** The schema made or upgraded (migrateSchema.ts) by one worker at a time, under a lock all of them take. */
async function migrate(client: PoolClient, where: string, readonly: boolean): Promise<void> {
	// Without values, a query may hold several statements (DDL).
	const exec = (s: Statement) =>
		client
			.query(s.sql, s.args)
			.then((r) => (s.kind === 'run' ? (r.rowCount ?? 0) : s.kind === 'get' ? r.rows[0] : r.rows));
	if (!(await driveAsync(checkSchema(POSTGRES, where, readonly), exec))) return;
	await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
	await driveAsync(migrateSchema(POSTGRES, where), exec);
}

/**
 * Runs `work` in one transaction on one connection of a pool from newPool. The connection
 * is watched while it is checked out: one the server drops mid-transaction (a restart, an
 * administrator's command), or whose connection failed under a query, is thrown away
 * rather than handed to the next caller.
 */
export async function transaction<T>(
	pool: Pool,
	work: (client: PoolClient) => Promise<T>,
): Promise<T> {
	const client = await pool.connect();
	let broken = false;
	const onError = () => {
		broken = true;
	};
	client.on('error', onError);
	try {
		await client.query('BEGIN');
		const result = await work(client);
		await client.query('COMMIT');
		return result;
	} catch (error) {
		if (lostConnection(error)) broken = true;
		if (!broken) await client.query('ROLLBACK').catch(onError);
		throw error;
	} finally {
		client.off('error', onError);
		client.release(broken ? true : undefined);
	}
}

/** Whether an error means the connection itself is gone (not a statement refused on a healthy one). */
export function lostConnection(error: unknown): boolean {
	const e = error as { code?: string; message?: string } | undefined;
	const code = e?.code ?? '';
	// 08: connection exceptions; 57P: operator intervention (shutdown, admin termination); 53: resources; E...: the socket's.
	if (/^(08|57P|53|E[A-Z]+$)/.test(code)) return true;
	return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect/i.test(
		e?.message ?? '',
	);
}
