import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:net';
import { createInterface } from 'node:readline';
import { ExitCodes } from '../../campaign/exitCodes';
import type { WorkerConfig } from '../../config/workerConfigSchema';
import type { Logger } from '../jsonLogger';
import { backoffDelay } from '../../pacing/backoff';
import { ConnectionHandover, HANDED_PORT_ENV } from './connectionHandover';
import { copyV8Flags } from './copyV8Flags';
import { listenPort, openListenSocket } from './listenSocket';
import { logReloadLimits } from './reloadLimits';
import { takeTestCommands } from '../testControl';

/** What a copy tells the process the user started. */
export type CopyMessage = { type: 'ready' } | { type: 'failed'; reason: string };
/** What that process tells a copy started in standby: the copy it replaces has exited. */
export const BEGIN = 'begin';
/** Set in a copy's environment: start in standby, taking callbacks only, until told BEGIN. */
export const STANDBY_ENV = 'CLOUDTEL_WORKER_STANDBY';

/** A copy that dies after it was ready is started again after this; one that keeps dying, not forever. */
const RESTART_MS = 1_000;
const MAX_QUICK_RESTARTS = 5;
const QUICK_MS = 30_000;
/** A copy's exit code when it could not start because its database does not answer (EX_TEMPFAIL). */
export const STORE_AWAY_EXIT = 75;
/** Copies that cannot reach the database are started again, backing off up to this (callbacks wait for one), for as long as it takes. */
const STORE_AWAY_MAX_MS = 5_000;

interface Copy {
	worker: Worker;
	exited: Promise<number>;
	/** Its last line on stderr: why it did not start, when it does not. */
	lastError: string;
	retiring: boolean;
	ready: boolean;
}

/**
 * The process the user started (`cloudtel worker`): it holds the listening socket (bound
 * here, or passed by systemd's socket activation) and runs the worker itself in a copy of
 * the program, a child process (node's cluster), to which it hands each connection it
 * accepts (ConnectionHandover). `kill -HUP` starts a fresh copy, with the code and the
 * config read anew from disk; once it takes callbacks, new connections go to it, the old
 * copy finishes what it took and exits, and only then does the new copy take up the rest
 * (forwards, the cron), so no two copies ever attempt one forward. The port never closes
 * and this process keeps its pid. A config that no longer loads, or a copy that does not
 * start, leaves the old copy running, and the log says why.
 *
 * A copy that dies is started again; the connections that arrive meanwhile wait here and
 * go to the new copy. If this process itself dies, its copies exit with it (a cluster
 * worker exits when its primary goes), as one process would; under socket activation the
 * socket stays open in systemd and what arrives waits for the next start.
 */
export class WorkerSupervisor {
	private current: Copy | undefined;
	private readonly copies = new Set<Copy>();
	private stopping = false;
	private reloading: Promise<void> | undefined;
	private quickRestarts: number[] = [];
	private done!: (code: number) => void;
	/** This process's own log: its level, masking and secrets are those of the config last loaded. */
	private log: Logger;
	private listener!: Server;
	private handover!: ConnectionHandover;

	constructor(
		private readonly configPath: string,
		/** Loads and checks the config as a copy will; throws with why not. */
		private readonly loadConfig: () => Promise<WorkerConfig>,
		/** The config the first copy runs with. */
		private config: WorkerConfig,
		private readonly logFor: (config: WorkerConfig) => Logger,
		/** The environment variables that supply settings of the config file (see settingsFromEnvironment). */
		private readonly fromEnvironment: () => string[],
	) {
		this.log = logFor(config);
	}

	/** Runs until stopped by a signal; the exit code is the last copy's. */
	async run(): Promise<number> {
		this.listener = await openListenSocket(this.config.server, this.log);
		// Connections wait here while no copy takes them; beyond a copy's own cap, they are closed.
		this.handover = new ConnectionHandover(
			this.listener,
			this.config.server.maxConnections,
			() => this.log,
		);
		cluster.setupPrimary({
			exec: process.argv[1],
			args: ['worker', '--config', this.configPath],
			execArgv: [...process.execArgv, ...copyV8Flags()],
			silent: true,
		});
		const first = this.fork(false);
		takeTestCommands((command) => (this.current ?? first).worker.send(command), false);
		const started = await this.whenReady(first);
		if (started !== 'ready') {
			this.closeListener();
			return started === STORE_AWAY_EXIT ? ExitCodes.Fatal : started;
		}
		this.current = first;
		const finished = new Promise<number>((resolve) => (this.done = resolve));
		process.on('SIGHUP', () => void this.reload());
		let signals = 0;
		const onSignal = (name: NodeJS.Signals) => {
			signals++;
			this.stopping = true;
			// No new connection: under socket activation, what arrives now waits in systemd's socket for the next start.
			if (signals === 1) this.closeListener();
			if (signals === 1)
				this.log.info('stopping: the worker copies finish what they took', { signal: name });
			// A second signal goes on too: the copies exit at once.
			for (const copy of this.copies) copy.worker.process.kill(name);
			void Promise.all([...this.copies].map((c) => c.exited)).then(() =>
				this.done(this.current ? this.exitCodeOf(this.current) : 0),
			);
		};
		process.on('SIGTERM', onSignal);
		process.on('SIGINT', onSignal);
		return finished;
	}

	private readonly codes = new Map<Copy, number>();
	/** Copies in a row that could not reach the database: the back-off's step. */
	private storeAway = 0;

	private closeListener(): void {
		this.handover.stop();
		this.listener.close();
	}

	private exitCodeOf(copy: Copy): number {
		return this.codes.get(copy) ?? 0;
	}

	private fork(standby: boolean): Copy {
		const worker = cluster.fork({
			[HANDED_PORT_ENV]: String(listenPort(this.listener)),
			...(standby ? { [STANDBY_ENV]: '1' } : {}),
		});
		const copy: Copy = {
			worker,
			lastError: '',
			retiring: false,
			ready: false,
			exited: new Promise((resolve) =>
				worker.process.once('exit', (code, signal) => {
					this.handover.release(worker);
					const c = code ?? (signal ? 128 + 9 : ExitCodes.Fatal);
					this.codes.set(copy, c);
					this.copies.delete(copy);
					resolve(c);
				}),
			),
		};
		this.copies.add(copy);
		// Whole lines only: two copies log at once during a reload, and a line must not be cut by another's.
		createInterface({ input: worker.process.stdout! }).on('line', (line) =>
			process.stdout.write(`${line}\n`),
		);
		createInterface({ input: worker.process.stderr! }).on('line', (line) => {
			process.stderr.write(`${line}\n`);
			if (line.trim()) copy.lastError = line.replace(/^cloudtel: /, '');
		});
		worker.on('message', (m: CopyMessage) => {
			if (m?.type === 'failed') copy.lastError = m.reason;
			// It takes callbacks: new connections go to it (during a reload, the old copy finishes what it has).
			if (m?.type === 'ready') {
				copy.ready = true;
				if (this.storeAway > 0)
					this.log.info('the worker copy reached its database and takes callbacks again', {
						tries: this.storeAway,
					});
				this.storeAway = 0;
			}
			if (m?.type === 'ready' && !this.stopping) this.handover.handTo(worker);
		});
		void copy.exited.then((code) => this.onExit(copy, code));
		return copy;
	}

	/** 'ready' once the copy takes callbacks; else its exit code, once it has exited. */
	private whenReady(copy: Copy): Promise<'ready' | number> {
		return new Promise((resolve) => {
			const onMessage = (m: CopyMessage) => {
				if (m?.type !== 'ready') return;
				copy.worker.off('message', onMessage);
				resolve('ready');
			};
			copy.worker.on('message', onMessage);
			void copy.exited.then((code) => {
				copy.worker.off('message', onMessage);
				resolve(code);
			});
		});
	}

	private onExit(copy: Copy, code: number): void {
		if (this.stopping || copy.retiring || copy !== this.current) return;
		// Dead in the middle of a reload: the new copy takes over as planned (or, if it does
		// not start, one is started in its place by handOver).
		if (this.reloading) {
			this.log.error('the running worker copy exited during the reload', {
				code,
				reason: copy.lastError || undefined,
			});
			return;
		}
		// The copy in charge died on its own: another one takes its place, on the same socket.
		// One that could not start for a database that is down (a restart, an outage) is not
		// giving up for good: copies are started again, backing off, until the database answers.
		if (code === STORE_AWAY_EXIT && !copy.ready) {
			const inMs = backoffDelay(++this.storeAway, {
				baseMs: RESTART_MS,
				maxMs: STORE_AWAY_MAX_MS,
			});
			this.log.warn(
				'the worker copy cannot reach its database; starting another when it may be back',
				{ reason: copy.lastError || undefined, tries: this.storeAway, inMs },
			);
			this.restartIn(inMs);
			return;
		}
		const now = Date.now();
		this.quickRestarts = [...this.quickRestarts.filter((t) => now - t < QUICK_MS), now];
		if (this.quickRestarts.length > MAX_QUICK_RESTARTS) {
			this.log.error('the worker copy keeps exiting; giving up', {
				code,
				reason: copy.lastError || undefined,
				restarts: this.quickRestarts.length - 1,
			});
			this.closeListener();
			this.done(code || ExitCodes.Fatal);
			return;
		}
		this.log.error('the worker copy exited unexpectedly; starting a new one', {
			code,
			reason: copy.lastError || undefined,
			inMs: RESTART_MS,
		});
		this.restartIn(RESTART_MS);
	}

	private restartIn(ms: number): void {
		setTimeout(() => {
			if (this.stopping) return;
			const next = this.fork(false);
			this.current = next;
			void this.whenReady(next).then((started) => {
				if (
					started !== 'ready' &&
					started !== STORE_AWAY_EXIT &&
					next === this.current &&
					!this.stopping
				) {
					this.log.error('the new worker copy did not start', {
						code: started,
						reason: next.lastError || undefined,
					});
				}
			});
		}, ms);
	}

	/** `kill -HUP`: a new copy of the code and config on disk, without a moment with the port closed. */
	private reload(): Promise<void> {
		if (this.reloading) {
			this.log.warn('reload already under way; this one is ignored');
			return this.reloading;
		}
		if (this.stopping) return Promise.resolve();
		this.reloading = this.handOver().finally(() => (this.reloading = undefined));
		return this.reloading;
	}

	private async handOver(): Promise<void> {
		let next: WorkerConfig;
		try {
			next = await this.loadConfig();
		} catch (error) {
			this.log.error('reload refused: the config does not load; the running copy goes on', {
				config: this.configPath,
				reason: (error as Error).message,
			});
			return;
		}
		const old = this.current;
		if (!old) return;
		// Its own lines follow the new log settings, and hide the new config's secrets too.
		const previous = this.config;
		this.config = next;
		this.log = this.logFor(next);
		logReloadLimits(previous, next, this.fromEnvironment(), this.log);
		if (next.server.host !== previous.server.host || next.server.port !== previous.server.port) {
			this.log.warn(
				'reload: the worker keeps listening where it started; a change of server.host or server.port needs a restart',
				{ listening: this.listener.address() },
			);
		}
		this.log.info('reloading: starting a new copy of the worker', { config: this.configPath });
		const copy = this.fork(true);
		const started = await this.whenReady(copy);
		if (started !== 'ready') {
			const oldAlive = !this.codes.has(old);
			// The running copy goes on (or one is started again) with the config it had.
			this.config = previous;
			this.log = this.logFor(previous);
			this.log.error(
				`reload failed: the new copy did not start; ${oldAlive ? 'the running copy goes on' : 'starting a copy again'}`,
				{ code: started, reason: copy.lastError || undefined },
			);
			if (!oldAlive) setImmediate(() => this.onExit(old, this.exitCodeOf(old)));
			return;
		}
		if (this.stopping) return;
		this.log.info(
			'reload: the new copy takes callbacks; the old one finishes what it took and exits',
			{ oldPid: old.worker.process.pid, newPid: copy.worker.process.pid },
		);
		old.retiring = true;
		this.current = copy;
		old.worker.process.kill('SIGTERM');
		const code = await old.exited;
		if (this.stopping) return;
		copy.worker.send(BEGIN);
		this.log.info('reload done', { pid: copy.worker.process.pid, oldExitCode: code });
	}
}
