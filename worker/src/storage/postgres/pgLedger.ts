import type { Pool } from 'pg';
import type { ClaimedChunk, SharedLedger } from '../sharedLedger';
import { SUPPRESSED } from '../ledgerSql';
import { SqlLedger, pendingRow } from '../sqlLedger';
import { all, get, raw, run, type Work } from '../work';
import { WORKER_ID } from '../workerId';
import { PgDb } from './pgDb';

/**
 * The ledger in Postgres, for workers on several machines: beside the Ledger, chunks
 * claimed by exactly one worker, a rate held across them, and the chunks of all on their way.
 */
export class PgLedger extends SqlLedger implements SharedLedger {
	constructor(pool: Pool) {
		super(new PgDb(pool));
	}

	/**
	 * The next pending rows no chunk on its way covers, in line order, up to the next such
	 * chunk (a submission is a range), taken as a submission under the campaign's lock, so
	 * claims of one campaign follow one another; rows whose number is now suppressed are
	 * settled so on the way.
	 */
	async claimChunk(name: string, limit: number): Promise<ClaimedChunk> {
		return this.tx(function* (q): Work<ClaimedChunk> {
			yield* run(q.lock!, `campaign:${name}`);
			const ranges = yield* all<{ first: number }>(q.submissions, name);
			let rows = (yield* raw<Parameters<typeof pendingRow>[0]>(q.claimable, name, limit)).map(
				pendingRow,
			);
			const end = Math.min(
				...ranges.map((s) => s.first).filter((first) => rows.length > 0 && first > rows[0].line),
			);
			rows = rows.filter((r) => r.line < end);
			const suppressed = rows.filter((r) => r.suppressed).map((r) => r.line);
			if (suppressed.length > 0)
				yield* run(q.suppressRows, name, JSON.stringify(suppressed), SUPPRESSED);
			rows = rows.filter((r) => !r.suppressed);
			const chunk = (yield* get<{ n: number }>(`SELECT nextval('chunk_numbers') AS n`))!.n;
			if (rows.length > 0)
				yield* run(
					q.addSubmission,
					name,
					chunk,
					rows[0].line,
					rows[rows.length - 1].line,
					Date.now(),
					WORKER_ID,
				);
			return { chunk, rows, suppressed: suppressed.length };
		});
	}

	async pace(name: string, count: number, perSecond: number): Promise<number> {
		const cost = (count * 1000) / perSecond;
		// Postgres's clock, not each machine's: the workers' clocks need not agree.
		const r = await this.db.run(
			get<{ wait: number }>(
				`WITH now AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms)
				 INSERT INTO pacing AS p (campaign, next_at) SELECT $1, ms + $2 FROM now
				 ON CONFLICT (campaign) DO UPDATE SET next_at = GREATEST(p.next_at, (SELECT ms FROM now)) + $2
				 RETURNING p.next_at - $2 - (SELECT ms FROM now) AS wait`,
				name,
				cost,
			),
		);
		return Math.max(0, r!.wait);
	}

	async submissionsInFlight(name: string): Promise<number> {
		return (await this.db.run(get<{ n: number }>(this.q.inFlight, name)))!.n;
	}
}
