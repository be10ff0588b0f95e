import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');

/** What `scripts/build.mjs` leaves in worker/dist once it has built everything. */
export const BUILD_STAMP = join(ROOT, 'worker/dist/.build-stamp.json');

/** Long enough for a full build on a loaded 2-core machine. */
export const BUILD_TIMEOUT_MS = 600_000;

/** What the CLI, its sandbox and its demo are built from. */
const SOURCES = [
	'api',
	'worker/src',
	'sandbox/src',
	'examples',
	'scripts/build.mjs',
	'tsconfig.base.json',
	'worker/tsconfig.json',
	'sandbox/tsconfig.json',
];

function newestIn(path: string): number {
	const stat = statSync(path, { throwIfNoEntry: false });
	if (!stat) return 0;
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(path)) newest = Math.max(newest, newestIn(join(path, entry)));
	return newest;
}

/** The last change to any source of the build (a deleted file changes its folder). */
export function newestSource(): number {
	return Math.max(...SOURCES.map((s) => newestIn(join(ROOT, s))));
}

interface Stamp {
	/** When the build began: a source changed after that may not be in it. */
	startedAt: number;
	/** Set by a failed build of ours, so that every test file does not try it again. */
	failed?: string;
}

function readStamp(): Stamp | undefined {
	try {
		return JSON.parse(readFileSync(BUILD_STAMP, 'utf8')) as Stamp;
	} catch {
		return undefined;
	}
}

/** Whether worker/dist was built, whole, from the sources as they are now. */
export function buildIsFresh(): boolean {
	const stamp = readStamp();
	return stamp !== undefined && stamp.failed === undefined && stamp.startedAt > newestSource();
}

function lockHeldByTheLiving(lock: string): boolean {
	let pid: number;
	try {
		pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
	} catch {
		// Taken a moment ago, its pid not yet written; or left by a process killed just then.
		return Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 10_000;
	}
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: alive, another user's.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function build(): Promise<void> {
	return new Promise((resolveBuild, reject) => {
		execFile(
			process.execPath,
			[join(ROOT, 'scripts/build.mjs')],
			{ cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
			(error, stdout, stderr) => {
				if (error)
					reject(
						new Error(`npm run build failed, so the CLI cannot be tested:\n${stdout}${stderr}`),
					);
				else resolveBuild();
			},
		);
	});
}

/**
 * The CLI-running tests drive worker/dist, as a user would. This builds it first unless it
 * was built from the sources as they are: a local `npx vitest run` after an edit would
 * otherwise test the code from before it. Test files run in parallel forks: one builds,
 * under a lock, and the others wait for it and find the build fresh.
 */
export async function ensureBuilt(): Promise<void> {
	const lock = join(
		tmpdir(),
		`cloudtel-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`,
	);
	const until = Date.now() + BUILD_TIMEOUT_MS;
	for (;;) {
		if (buildIsFresh()) return;
		const stamp = readStamp();
		if (stamp?.failed !== undefined && stamp.startedAt > newestSource())
			throw new Error(stamp.failed);
		try {
			mkdirSync(lock);
		} catch {
			if (!lockHeldByTheLiving(lock)) rmSync(lock, { recursive: true, force: true });
			else if (Date.now() > until)
				throw new Error(`waited ${BUILD_TIMEOUT_MS / 1000} s for the build holding ${lock}`);
			await new Promise((r) => setTimeout(r, 250));
			continue;
		}
		try {
			writeFileSync(join(lock, 'pid'), String(process.pid));
			if (buildIsFresh()) return;
			const startedAt = Date.now();
			try {
				await build();
			} catch (error) {
				mkdirSync(dirname(BUILD_STAMP), { recursive: true });
				writeFileSync(
					BUILD_STAMP,
					JSON.stringify({ startedAt, failed: (error as Error).message } satisfies Stamp),
				);
				throw error;
			}
			// build.mjs stamped it; a source saved while it ran leaves it stale, and the loop builds again.
		} finally {
			rmSync(lock, { recursive: true, force: true });
		}
	}
}
