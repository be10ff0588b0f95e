import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module of the test support, without types
import { postgresNative, postgresUser } from './postgresBinaries.mjs';
import { freePort } from '../freePort.mjs';

/**
 * A Postgres of one test file's own, which the test stops and starts with pg_ctl, as an
 * operator would (`pg_ctl stop -m fast` ends every connection with "terminating connection
 * due to administrator command"). Not the run's shared Postgres: other test files use that
 * one at the same time. Trust authentication on 127.0.0.1 only.
 */
export class StoppablePostgres {
	readonly url: string;
	private readonly native: string;
	private readonly user: { uid: number; gid: number } | undefined;
	private running = false;
	private readonly onExit = () => this.stopNow();

	private constructor(
		readonly dir: string,
		readonly port: number,
	) {
		this.native = postgresNative() as string;
		this.user = postgresUser() as { uid: number; gid: number } | undefined;
		this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
	}

	static async create(): Promise<StoppablePostgres> {
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-pg-faults-'));
		chmodSync(dir, 0o777);
		const pg = new StoppablePostgres(dir, await freePort());
		pg.initdb();
		await pg.start();
		process.once('exit', pg.onExit);
		return pg;
	}

	private run(bin: string, args: string[]): string {
		const file = join(this.native, 'bin', bin);
		const env = { ...process.env, LD_LIBRARY_PATH: join(this.native, 'lib'), LC_ALL: 'C' };
		return execFileSync(file, args, {
			env,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			...(this.user ? { uid: this.user.uid, gid: this.user.gid } : {}),
		});
	}

	private initdb(): void {
		const data = join(this.dir, 'data');
		if (this.user) chownSync(this.dir, this.user.uid, this.user.gid);
		this.run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
		writeFileSync(
			join(data, 'postgresql.auto.conf'),
			`listen_addresses = '127.0.0.1'\nport = ${this.port}\nunix_socket_directories = '${this.dir}'\nfsync = off\nmax_connections = 200\n`,
		);
	}

	/** `pg_ctl start`, waiting until it takes connections. */
	async start(): Promise<void> {
		this.run('pg_ctl', [
			'-D',
			join(this.dir, 'data'),
			'-l',
			join(this.dir, 'log'),
			'-w',
			'-t',
			'60',
			'start',
		]);
		this.running = true;
	}

	/** `pg_ctl stop -m fast`: connections are ended, transactions under way rolled back. */
	async stop(): Promise<void> {
		this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
		this.running = false;
	}

	/** The server's log, for a test that failed. */
	log(): string {
		try {
			return readFileSync(join(this.dir, 'log'), 'utf8');
		} catch {
			return '';
		}
	}

	async close(): Promise<void> {
		process.off('exit', this.onExit);
		this.stopNow();
		rmSync(this.dir, { recursive: true, force: true });
	}

	private stopNow(): void {
		if (!this.running) return;
		this.running = false;
		const file = join(this.native, 'bin', 'pg_ctl');
		spawnSync(file, ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop'], {
			env: { ...process.env, LD_LIBRARY_PATH: join(this.native, 'lib') },
			stdio: 'ignore',
			...(this.user ? { uid: this.user.uid, gid: this.user.gid } : {}),
		});
	}
}
