import type { Pool } from 'pg';
import type { SqlDb, Write } from '../sqlDb';
import { transaction } from './pgDatabase';

/** A Postgres pool as a SqlDb. Every commit is durable already; one statement is its own transaction. */
export class PgDb implements SqlDb {
	readonly dialect = 'postgres';
	private closed = false;

	constructor(readonly pool: Pool) {}

	async all<T>(sql: string, ...args: unknown[]): Promise<T[]> {
		return (await this.pool.query(sql, args)).rows as T[];
	}

	async write(statements: readonly Write[]): Promise<number[]> {
		const run = async (db: Pick<Pool, 'query'>) => {
			const changed: number[] = [];
			for (const [sql, ...args] of statements) changed.push((await db.query(sql, args)).rowCount ?? 0);
			return changed;
		};
		return statements.length === 1 ? run(this.pool) : transaction(this.pool, run);
	}

	async sync(): Promise<void> {}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}
}
