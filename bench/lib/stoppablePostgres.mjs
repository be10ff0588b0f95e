// A Postgres the bench stops and starts with its own pg_ctl (`stop -m fast`, as an operator
// would), run from binaries the postgres user may read (see postgresBinaries.mjs), with
// Postgres's default fsync (on), as a user's server runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/freePort.mjs';
import { postgresNative, postgresUser } from '../../test/support/postgres/postgresBinaries.mjs';

export async function stoppablePostgres() {
	const native = postgresNative();
	const user = postgresUser();
	const as = user ? { uid: user.uid, gid: user.gid } : {};
	const env = { ...process.env, LD_LIBRARY_PATH: join(native, 'lib'), LC_ALL: 'C' };
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-bench-pg-'));
	chmodSync(dir, 0o777);
	if (user) chownSync(dir, user.uid, user.gid);
	const data = join(dir, 'data');
	const port = await freePort();
	const run = (bin, args) =>
		execFileSync(join(native, 'bin', bin), args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...as });
	run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
	writeFileSync(
		join(data, 'postgresql.auto.conf'),
		`listen_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = '${dir}'\nmax_connections = 100\n`,
	);
	const start = () =>
		run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
	const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
	start();
	let up = true;
	const onExit = () =>
		up &&
		spawnSync(join(native, 'bin', 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], {
			env,
			stdio: 'ignore',
			...as,
		});
	process.once('exit', onExit);
	return {
		url: `postgres://postgres@127.0.0.1:${port}/postgres`,
		start: () => (start(), (up = true)),
		stop: () => (stop(), (up = false)),
		close: () => {
			onExit();
			up = false;
			process.off('exit', onExit);
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
