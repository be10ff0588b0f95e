import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { copyV8Flags } from '../../../worker/src/daemon/supervisor/copyV8Flags';
import { cleanupAfterEach } from '../../support/cleanup';
import { workerRig } from '../../support/workerRig';
import { ensureBuilt } from './harness';

const cleanup = cleanupAfterEach();

/** The command line of each process `pid` started (Linux's /proc). */
function childArgs(pid: number): string[][] {
	const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
	return children
		.filter(Boolean)
		.map((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0'));
}

/**
 * The worker copies' V8 tiering (bench/RESULTS.md, "Reply bursts"): the copy the supervisor
 * starts runs with the flags, and this Node knows every one of them (an unknown flag would
 * stop the copy from starting at all).
 */
describe("a worker copy's V8 flags", () => {
	it('are given on Node 20 (V8 11) only, and this Node starts with them', () => {
		expect(copyV8Flags('11.3.244.8-node.38')).toContain('--interrupt-budget=2048');
		expect(copyV8Flags('12.4.254.21-node.33')).toEqual([]);
		const flags = copyV8Flags();
		const run = spawnSync(process.execPath, [...flags, '-e', 'process.exit(0)'], {
			encoding: 'utf8',
		});
		expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
	});

	it('the supervisor starts its copy with them', async () => {
		await ensureBuilt();
		const rig = await workerRig(cleanup, { secret: 'copy-v8-flags-secret-0123456789ab' });
		const copies = childArgs(rig.worker.child.pid!).filter((args) => args.includes('worker'));
		expect(copies).toHaveLength(1);
		for (const flag of copyV8Flags()) expect(copies[0]).toContain(flag);
		if (process.versions.v8.startsWith('11.')) expect(copyV8Flags()).not.toEqual([]);
	});
});
