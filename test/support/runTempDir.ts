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
	// Traversable by others: as root, the run's Postgres works in it as the `postgres` user.
	chmodSync(dir, 0o711);
	process.env.TMPDIR = dir;
	return () => rmSync(dir, { recursive: true, force: true });
}
