import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newDatabase } from '../../support/postgres/database';
import { processAlive } from '../daemon/harness';
import { FaultRig, until, type WorkerProcess } from './faultRig';

/** kill -HUP and a plain crash, in parts: a reload on each backend, and a plain crash. */
export function scenarios(part: 'sqlite' | 'postgres' | 'plain-crash'): void {
	// The two restart rows of issue #18's table. A stop and a start leave a gap in which the
	// provider's callbacks find no one; `kill -HUP` hands over to a new copy of the worker
	// with the port open throughout, the process the user started keeping its pid.

	let worker: WorkerProcess | undefined;
	const rig = FaultRig.forFile(() => worker);

	describe.each((['sqlite', 'postgres'] as const).filter((b) => b === part))(
		'reload on %s',
		(backend) => {
			it('kill -HUP in the middle of a burst of 500 replies: every reply forwarded once, the port never closed, the same pid', async () => {
				const db = backend === 'sqlite' ? `${rig.dir}/reload.db` : await newDatabase('reload');
				const config = rig.config(
					db,
					{ spool: { dir: `${rig.dir}/spool-reload-${backend}` } },
					`reload-${backend}.json`,
				);
				worker = await rig.startWorker(config);
				const pid = worker.child.pid!;
				const first = await rig.burst(250);
				// The reload once the worker has begun answering the burst.
				await until(
					async () => (await rig.callbacksDone(first)).delivered > 0,
					30_000,
					'the first replies answered',
				);
				process.kill(pid, 'SIGHUP');
				const second = await rig.burst(250);
				await worker.waitFor((l) => l.msg === 'reload done', 60_000, 'the reload');
				const all = [...first, ...second];
				await until(
					async () => (await rig.callbacksDone(all)).pending === 0,
					30_000,
					'the sandbox to be done',
				);
				expect(await rig.callbacksDone(all)).toEqual({ delivered: 500, refused: 0, pending: 0 });
				const result = await rig.settle(all, 90_000);
				expect({ lost: result.lost.length, twice: result.twice, repeats: result.repeats }).toEqual({
					lost: 0,
					twice: [],
					repeats: 0,
				});
				expect(worker.child.exitCode).toBeNull();
				expect(processAlive(pid)).toBe(true);
				expect(worker.count((l) => l.msg === 'worker started')).toBe(2);

				// A config that no longer loads: the running copy goes on, and the log says why.
				const good = (await import('node:fs')).readFileSync(config, 'utf8');
				writeFileSync(config, good.replace('"secret"', '"secrett"'));
				process.kill(pid, 'SIGHUP');
				const refused = await worker.waitFor(
					(l) => l.msg === 'reload refused: the config does not load; the running copy goes on',
					10_000,
					'the refusal',
				);
				expect(refused.reason).toMatch(/secrett/);
				writeFileSync(config, good);
				const after = await rig.burst(20);
				const more = await rig.settle(after, 30_000);
				expect({ lost: more.lost.length, twice: more.twice, repeats: more.repeats }).toEqual({
					lost: 0,
					twice: [],
					repeats: 0,
				});
				expect(await worker.stop('SIGTERM')).toBe(0);
				worker = undefined;
			}, 240_000);
		},
	);

	describe.runIf(part === 'plain-crash')('a plain crash', () => {
		it('SIGKILL in the middle of a burst: the replies that arrive while no worker runs are lost (stated), and only those; every reply answered 200 is forwarded once', async () => {
			const config = rig.config(
				`${rig.dir}/kill.db`,
				{ spool: { dir: `${rig.dir}/spool-kill` } },
				'kill.json',
			);
			worker = await rig.startWorker(config);
			const sids = await rig.burst(500);
			// Killed once the worker has answered part of the burst: the rest is in flight.
			await until(
				async () => (await rig.callbacksDone(sids)).delivered >= 100,
				30_000,
				'a hundred replies answered',
			);
			await worker.stop('SIGKILL');
			// The gap: replies whose every attempt finds no worker (the provider tries three times, ~1.5 s apart).
			const gap = await rig.burst(20);
			await until(
				async () => (await rig.callbacksDone(gap)).pending === 0,
				30_000,
				"the gap's callbacks out of attempts",
			);
			worker = await rig.startWorker(config);
			await until(
				async () => (await rig.callbacksDone(sids)).pending === 0,
				30_000,
				'the sandbox to be done',
			);
			const calls = await rig.callbacksDone(sids);
			const outbox = (await rig.driver.outbox()).Callbacks as {
				MessageSid: string;
				Delivered: boolean;
			}[];
			const answered = sids.filter((s) => outbox.some((c) => c.MessageSid === s && c.Delivered));
			const result = await rig.settle(answered, 90_000);
			// The guarantee: a callback answered 200 is never lost, nor forwarded under two identities.
			// An attempt the kill cut off between sending and its mark goes again under its own
			// Message-ID or Idempotency-Key (a repeat the receiver drops): counted, not forbidden.
			expect({ lost: result.lost.length, twice: result.twice }).toEqual({ lost: 0, twice: [] });
			// What is not guaranteed, and is lost: the replies whose three attempts all fell in the gap.
			expect(await rig.callbacksDone(gap)).toEqual({ delivered: 0, refused: 20, pending: 0 });
			expect(rig.forwarded(gap)).toMatchObject({ emailed: 0, posted: 0 });
			console.log(
				`SIGKILL in a burst of 500: ${calls.refused} of them lost with the 20 sent in the gap (all three attempts found no worker), ${calls.delivered} answered 200 and forwarded, ${result.repeats} forwards repeated under their own identity`,
			);
			expect(await worker.stop('SIGTERM')).toBe(0);
			worker = undefined;
		}, 240_000);
	});
}
