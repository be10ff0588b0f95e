import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoppablePostgres } from '../../support/postgres/stoppablePostgres';
import { sql } from '../../support/postgres/database';
import { FaultRig, until, type WorkerProcess } from './faultRig';

// Issue 33: a worker's copy SIGKILLed while Postgres was down could not be replaced: each
// new copy failed to reach the database, and after 5 the supervisor gave up and the worker
// exited 1. Postgres here is this file's own, stopped with `pg_ctl stop -m fast`.

const rig = new FaultRig();
let pg: StoppablePostgres;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
	pg = await StoppablePostgres.create();
	await rig.start();
}, 180_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await rig.close();
	await pg?.close();
});

/** The worker's copy: the one child of the process the user started. */
function copyOf(w: WorkerProcess): number {
	const pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(w.child.pid)], {
		encoding: 'utf8',
	})
		.trim()
		.split(/\s+/)
		.map(Number);
	expect(pids).toHaveLength(1);
	return pids[0];
}

describe('a worker whose copy dies while Postgres is down', () => {
	it('keeps starting copies, backing off, as long as Postgres is down, and takes callbacks again once it is back', async () => {
		await sql(pg.url, 'CREATE DATABASE waits');
		const config = rig.config(pg.url.replace(/\/postgres$/, '/waits'), {
			spool: { dir: `${rig.dir}/spool-waits` },
		});
		worker = await rig.startWorker(config);
		const w = worker;
		const first = await rig.burst(5);
		expect((await rig.settle(first, 30_000)).lost).toEqual([]);

		await pg.stop();
		process.kill(copyOf(w), 'SIGKILL');
		// More copies failing than a crash loop is allowed (5 in 30 s), every one for the database.
		const failed = (l: { msg: string }) =>
			l.msg === 'the worker copy cannot reach its database; starting another when it may be back' ||
			l.msg === 'the worker copy exited unexpectedly; starting a new one';
		await until(
			() => w.count(failed) >= 6 || w.child.exitCode !== null,
			45_000,
			'six copies failing',
		);
		expect(w.child.exitCode).toBeNull();
		expect(w.count((l) => l.msg === 'the worker copy keeps exiting; giving up')).toBe(0);

		await pg.start();
		await w.waitFor(
			(l) => l.msg === 'the worker copy reached its database and takes callbacks again',
			20_000,
			'a copy back',
		);
		const after = await rig.burst(5);
		expect((await rig.settle(after, 30_000)).lost).toEqual([]);
	}, 120_000);
});
