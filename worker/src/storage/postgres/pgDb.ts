import type { Pool } from 'pg';
import { stepWrite, type SqlDb, type Step } from '../sqlDb';
import { transaction } from './pgDatabase';

/** A Postgres pool as a SqlDb. Every commit is durable already; one statement is its own transaction. */
export class PgDb implements SqlDb {
	readonly dialect = 'postgres';
	private closed = false;

	constructor(readonly pool: Pool) {}

	async all<T>(sql: string, ...args: unknown[]): Promise<T[]> {
		return (await this.pool.query(sql, args)).rows as T[];
	}

	async write(steps: readonly Step[]): Promise<number[]> {
		const run = async (db: Pick<Pool, 'query'>) => {
			const changed: number[] = [];
			for (const step of steps) {
				const [sql, ...args] = stepWrite(step, changed) ?? [];
				changed.push(sql === undefined ? 0 : ((await db.query(sql, args)).rowCount ?? 0));
			}
			return changed;
		};
		return steps.length === 1 ? run(this.pool) : transaction(this.pool, run);
	}

	async sync(): Promise<void> {}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.pool.end();
	}
}
