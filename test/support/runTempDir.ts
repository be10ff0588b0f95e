import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temp folder for the whole test run, made the TMPDIR of every test file and of every
 * process they start (vitest hands its forks the environment as it is after global set-up),
 * and removed at the end: a run leaves no folder behind, however its files made theirs.
 */
export function runTempDir(): () => void {
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-run-'));
	// As open as /tmp itself: as root, the run's Postgres and the tests that run the CLI as
	// another user work in it as that user.
	chmodSync(dir, 0o1777);
	process.env.TMPDIR = dir;
	return () => rmSync(dir, { recursive: true, force: true });
}
