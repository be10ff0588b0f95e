import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDaemonStore } from '../../../worker/src/storage/openStores';
import { PgCluster } from '../../../worker/src/storage/postgres/pgCluster';
import { openPostgres } from '../../../worker/src/storage/postgres/pgDatabase';
import type { DaemonStore } from '../../../worker/src/storage/daemonStore';
import { WORKER_ID } from '../../../worker/src/storage/workerId';
import { StoppablePostgres } from '../../support/postgres/stoppablePostgres';
import { postgresAt, sql } from '../../support/postgres/database';
import { until } from '../daemon/harness';

// Issue 33: worker 2 e-mailed a forward but could not record it (57P01, Postgres
// restarting); when Postgres was back, worker 1 found worker 2's lease stale, reaped it and
// sent the forward again. Two workers' leases and stores here, on a Postgres of this
// file's own that the test stops as an operator would.

/** The lease's staleness, short for the test; the daemon's is LEASE_STALE_MS. */
const STALE_MS = 400;

let pg: StoppablePostgres;
const closing: { close(): Promise<void> }[] = [];

beforeAll(async () => {
	pg = await StoppablePostgres.create();
}, 120_000);

afterAll(async () => {
	for (const c of closing) await c.close().catch(() => undefined);

	await pg?.close();
});

/** A beat as WorkerLease makes it, made again while the pool still holds connections the restart broke. */
const beat = (c: PgCluster) =>
	until(
		() =>
			c.beat().then(
				() => true,
				() => false,
			),
		10_000,
		'a beat',
	);

describe("two workers' leases through a Postgres restart", () => {
	it('a worker that sent a forward but could not record it is not reaped for the outage they shared; its outcome is recorded once, nothing is sent again; a worker gone for good still is', async () => {
		const url = pg.url;
		const location = postgresAt(url);
		// Worker 2 (this process's id) sends; worker 1 judges leases.
		const store2: DaemonStore = await openDaemonStore(location);
		const store1: DaemonStore = await openDaemonStore(location);
		const worker2 = new PgCluster(await openPostgres(location));
		const worker1 = new PgCluster(await openPostgres(location), randomUUID());
		closing.push(store2, store1, worker2, worker1);

		await store2.queueForwards(
			[
				{
					eventKey: 'reply:SM244',
					actionKey: 'all.0',
					payload: { action: { type: 'forwardEmail' } },
				},
			],
			Date.now(),
		);
		// Both alive and beating long enough to judge each other.
		await until(
			async () => {
				await Promise.all([worker1.beat(), worker2.beat()]);
				return (
					(await worker1.reap(STALE_MS)).length === 0 &&
					(await sql(url, 'SELECT id FROM workers')).length === 2
				);
			},
			10_000,
			'both leases',
		);
		const [job] = await store2.claimDue(Date.now(), 10);
		expect(job).toMatchObject({ state: 'sending', attempts: 1 });

		// The e-mail leaves; Postgres stops before worker 2 records it (57P01), for longer than a lease lasts.
		const stoppedAt = Date.now();
		await pg.stop();
		await expect(store2.markSent(job.id, Date.now())).rejects.toThrow();
		await until(() => Date.now() - stoppedAt > 2 * STALE_MS, 5000, 'an outage longer than a lease');
		await pg.start();

		// Worker 1 is back first: worker 2's lease is older than STALE_MS, but so is every beat of the outage.
		await beat(worker1);
		expect(await worker1.reap(STALE_MS)).toEqual([]);
		expect(await store1.interruptedForwards()).toEqual([]);
		// Worker 2's outcome, kept in memory, is recorded when it can be.
		await until(
			() =>
				store2.markSent(job.id, Date.now()).then(
					() => true,
					() => false,
				),
			10_000,
			'the outcome recorded',
		);
		await beat(worker2);
		expect((await store1.forwards()).map((f) => [f.state, f.attempts])).toEqual([['sent', 1]]);

		// Worker 2 now beats no more: once worker 1 has reached Postgres for a lease's length, it is reaped.
		const lost = await until(
			async () => {
				await worker1.beat();
				const reaped = await worker1.reap(STALE_MS);
				return reaped.length > 0 ? reaped : undefined;
			},
			10_000,
			'worker 2 reaped',
		);
		expect(lost.map((w) => w.id)).toEqual([WORKER_ID]);
	});
});
