import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { ensureBuilt, freePort, tempDir, until, WorkerProcess, writeConfig } from './harness';

const SECRET = 'spool-owner-secret-0123456789';

const cleanup = cleanupAfterEach();

/** A process that lives until killed: the holder of a pid. */
function sleeper(): ChildProcess {
	const child = spawn('sleep', ['600'], { stdio: 'ignore' });
	cleanup.push(async () => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	});
	return child;
}

/** Clock ticks from boot to the start of `pid`: field 22 of /proc/<pid>/stat. */
function startTicks(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]);
}

const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replace(/-/g, '');

function reply(sid: string, accountSid: string): { k: string; e: unknown; t: number } {
	const data = {
		MessageSid: sid,
		AccountSid: accountSid,
		PropertySid: 'PR0',
		From: '+61491570441',
		To: '+61400000441',
		ExternalId: '',
		Timestamp: 1_900_000_000,
		OriginalMessageSid: 'SMoriginal',
		Text: `answer ${sid}`,
	};
	return { k: `reply:${sid}`, e: { kind: 'reply', data }, t: Date.now() - 60_000 };
}

/**
 * A spool as a worker leaves it when it dies: its callbacks, one JSON line each, then the
 * zeros of the room it took, in a file named after the worker's pid, the time it made it,
 * its start since boot and the boot.
 */
function deadWorkersSpool(
	dir: string,
	owner: { pid: number; start: number; boot: string },
	sids: string[],
	accountSid: string,
): string {
	const path = join(
		dir,
		`spool-${owner.pid}-${Date.now() - 120_000}-${owner.start}-${owner.boot}.jsonl`,
	);
	const lines = sids.map((sid) => `${JSON.stringify(reply(sid, accountSid))}\n`).join('');
	writeFileSync(path, Buffer.concat([Buffer.from(lines), Buffer.alloc(4096)]), { mode: 0o600 });
	return path;
}

/**
 * A worker that died leaves its spool behind, and the system may give its pid to another
 * process. A live worker feeds such a spool into its store as soon as the owner is gone:
 * the owner is the process that made the spool, not whatever holds its pid now.
 */
describe.runIf(process.platform === 'linux')('a dead worker’s spool', () => {
	it('is fed when its pid now belongs to another process, or the spool is from an earlier boot; each callback forwarded once; a live owner’s spool is left alone until it exits', async () => {
		await ensureBuilt();
		const sandbox = await startSandbox({ port: 0 });
		cleanup.push(() => sandbox.close());
		const n8n = await CallbackCatcher.start();
		cleanup.push(() => n8n.close());
		const dir = tempDir();
		const spool = join(dir, 'spool');
		mkdirSync(spool, { mode: 0o700 });
		const accountSid = sandbox.demo.AccountSid;

		// The dead worker's pid, now a sleeping process's that started after the worker had.
		const reused = sleeper();
		const deadOwner = { pid: reused.pid!, start: startTicks(reused.pid!) - 100, boot };
		const reusedPath = deadWorkersSpool(
			spool,
			deadOwner,
			['SMreused1', 'SMreused2', 'SMreused3'],
			accountSid,
		);
		// A worker alive and well: its own pid and start.
		const owner = sleeper();
		const liveOwner = { pid: owner.pid!, start: startTicks(owner.pid!), boot };
		const livePath = deadWorkersSpool(spool, liveOwner, ['SMlive1', 'SMlive2'], accountSid);
		// The same pid and start, but written before the machine last booted.
		const earlierBoot = deadWorkersSpool(
			spool,
			{ ...liveOwner, boot: 'f'.repeat(32) },
			['SMboot1'],
			accountSid,
		);

		const port = await freePort();
		const config = writeConfig(dir, {
			db: `${dir}/worker.db`,
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', secret: SECRET },
			outbox: { backoffMs: 50, maxBackoffMs: 200 },
			spool: { dir: spool },
			forward: { n8n: { url: `${n8n.url}/webhook/trigger/cloudtel` } },
		});
		const env = {
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: accountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		};
		const worker = await WorkerProcess.start(config, env);
		cleanup.push(() => worker.stop('SIGKILL'));
		const keys = () => n8n.requests.map((r) => String(r.headers['idempotency-key']));
		/** A spool from an earlier boot, fed at the look the test asks for; resolves once it is forwarded. */
		const markSpool = async (sid: string) => {
			const path = deadWorkersSpool(
				spool,
				{ pid: 1, start: 1, boot: 'e'.repeat(32) },
				[sid],
				accountSid,
			);
			worker.lookForSpools();
			// Its log line too: the forward can reach the receiver before the worker's line is read.
			await until(
				() =>
					keys().includes(`reply:${sid}`) &&
					!existsSync(path) &&
					worker.logs.some(
						(l) =>
							l.msg === 'callbacks spooled by a process that is gone are in the store' &&
							l.spool === path,
					),
				10_000,
				`the mark ${sid} fed and forwarded`,
			);
			return { keys: [`reply:${sid}`], path };
		};

		const orphans = ['reply:SMreused1', 'reply:SMreused2', 'reply:SMreused3', 'reply:SMboot1'];
		await until(
			() => orphans.every((k) => keys().includes(k)),
			20_000,
			'the dead workers’ callbacks forwarded',
		);
		// The mark: another dead worker's spool, fed by a later look, which also finds the live
		// owner's spool; the outbox sends one at a time, oldest first, so a repeat comes before it.
		const mark = await markSpool('SMmark1');
		const marks = mark.keys;
		expect(keys().sort()).toEqual([...orphans, ...marks].sort());
		expect(existsSync(reusedPath)).toBe(false);
		expect(existsSync(earlierBoot)).toBe(false);
		expect(existsSync(livePath)).toBe(true);
		const fed = worker.logs.filter(
			(l) => l.msg === 'callbacks spooled by a process that is gone are in the store',
		);
		expect(fed.map((l) => [l.spool, l.events]).sort()).toEqual(
			[
				[reusedPath, 3],
				[earlierBoot, 1],
				[mark.path, 1],
			].sort(),
		);
		for (const r of n8n.requests)
			expect(r.body.MessageSid).toBe(String(r.headers['idempotency-key']).slice('reply:'.length));

		// The owner exits without feeding it (as a crash would): its spool is fed now.
		owner.kill('SIGKILL');
		await until(
			() => keys().includes('reply:SMlive1') && keys().includes('reply:SMlive2'),
			20_000,
			'the spool of the worker that exited',
		);
		await until(() => !existsSync(livePath), 5_000, 'the spool removed');
		const lastMarks = (await markSpool('SMmark2')).keys;
		expect(keys().sort()).toEqual(
			[...orphans, ...marks, 'reply:SMlive1', 'reply:SMlive2', ...lastMarks].sort(),
		);
		expect(reused.exitCode).toBeNull();
		expect(await worker.stop('SIGTERM')).toBe(0);
	}, 120_000);
});
