import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { beforeAll } from 'vitest';
import YAML from 'yaml';
import { basicAuthorization } from '../../../api';
import type { RunningSandbox } from '../../../sandbox/src';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/freshBuild';
import { freePort } from '../../support/freePort.mjs';
import { runName } from '../../../worker/src/daemon/callbacks/4-replies/runName';
import { allSandboxMessages } from '../../support/sandboxMessages';
import { tempDir } from '../../support/tempDir';
import { until } from '../../support/until';

export const ROOT = resolve(__dirname, '../../..');
export const CLI = join(ROOT, 'worker/bin/cloudtel.js');
// Every test file that imports this harness runs the built CLI: it is built first when stale.
beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);
export { ensureBuilt, tempDir };

export { freePort };

export { until };

/**
 * A cron that does not fire while a test runs: its ticks come from the test (WorkerProcess.tick),
 * when it wants them, not after seconds of waiting. workerDaemon.test.ts proves the real cron.
 */
export const TEST_TICKS_ONLY = '0 0 1 1 *';

/** A process of this pid is there (the worker the user started keeps its pid through a reload). */
export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

export interface ReceivedMail {
	from: string;
	to: string[];
	raw: string;
	/** The raw text with soft line breaks undone, for searching. */
	text: string;
}

/** A real SMTP server (smtp-server) that can be stopped and started again on its port. */
export class SmtpSink {
	readonly mails: ReceivedMail[] = [];
	/** Every AUTH the server was offered: the user names. */
	readonly auths: string[] = [];
	private server: SMTPServer | undefined;
	readonly user = 'relay-user';
	readonly password = 'smtp-Pa55word-never-logged';

	constructor(readonly port: number) {}

	async start(): Promise<void> {
		const server = new SMTPServer({
			authOptional: false,
			allowInsecureAuth: true,
			disabledCommands: ['STARTTLS'],
			closeTimeout: 100,
			logger: false,
			onAuth: (auth, _session, callback) => {
				this.auths.push(auth.username ?? '');
				if (auth.username === this.user && auth.password === this.password)
					callback(null, { user: auth.username });
				else callback(new Error('Invalid username or password'));
			},
			onData: (stream, session, callback) => {
				const chunks: Buffer[] = [];
				stream.on('data', (c: Buffer) => chunks.push(c));
				stream.on('end', () => {
					const raw = Buffer.concat(chunks).toString('utf8');
					this.mails.push({
						from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
						to: session.envelope.rcptTo.map((r) => r.address),
						raw,
						text: raw.replace(/=\r?\n/g, ''),
					});
					callback();
				});
			},
		});
		await new Promise<void>((resolveListen, reject) => {
			server.once('error', reject);
			server.listen(this.port, '127.0.0.1', () => {
				server.off('error', reject);
				// smtp-server reports a client's reset connection (a worker SIGKILLed mid-session, as
				// the fault tests do) as its own 'error': unheard, that is an uncaught exception.
				server.on('error', (error: NodeJS.ErrnoException) => {
					if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
				});
				resolveListen();
			});
		});
		this.server = server;
	}

	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		if (server) await new Promise<void>((r) => server.close(() => r()));
	}

	/** Mails whose body names this reply MessageSid. */
	about(messageSid: string): ReceivedMail[] {
		return this.mails.filter((m) => m.text.includes(`MessageSid: ${messageSid}`));
	}
}

export interface LogLine {
	time: string;
	level: string;
	msg: string;
	[key: string]: unknown;
}

/** `cloudtel worker --config FILE`, spawned from the built CLI, its JSON log collected. */
export class WorkerProcess {
	readonly logs: LogLine[] = [];
	stdout = '';
	stderr = '';
	readonly exited: Promise<number | null>;
	/** Everything it printed on stdout, for searching. */
	text = '';

	private constructor(readonly child: ChildProcess) {
		child.stdout!.on('data', (d: Buffer) => {
			this.stdout += d;
			const lines = this.stdout.split('\n');
			this.stdout = lines.pop()!;
			for (const line of lines) this.logs.push(JSON.parse(line) as LogLine);
			this.text += String(d);
		});
		child.stderr!.on('data', (d: Buffer) => {
			this.stderr += d;
		});
		this.exited = new Promise((r) => child.on('exit', (code) => r(code)));
	}

	/** With the test control on (see worker/src/daemon/testControl.ts): tick, catchUp and prune work. */
	static start(configPath: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
		return WorkerProcess.started(
			spawn(process.execPath, [CLI, 'worker', '--config', configPath], {
				env: { ...process.env, CLOUDTEL_TEST_CONTROL: '1', ...env },
				stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
			}),
		);
	}

	/** The campaign's cron tick now (or at `at`, so that two workers run the same tick): its run is `<campaign>-<tick>`. */
	tick(campaign: string, at?: Date): void {
		this.command({ cloudtelTest: 'tick', campaign, at: at?.toISOString() });
	}

	/**
	 * The campaign's tick at `at` once its last run has wholly ended: a tick that still finds
	 * it going is skipped (and says so), and is fired again. Resolves when the tick's run has begun.
	 */
	async tickAfterRun(campaign: string, at: Date): Promise<void> {
		const run = runName(campaign, at);
		const skipped = (l: LogLine) =>
			l.msg === 'campaign tick skipped: the previous run is still going' &&
			l.tick === at.toISOString();
		for (;;) {
			const before = this.count(skipped);
			this.tick(campaign, at);
			const outcome = await until(
				() =>
					this.logs.some((l) => l.run === run)
						? 'ran'
						: this.count(skipped) > before
							? 'skipped'
							: undefined,
				15_000,
				`the tick of ${run}`,
			);
			if (outcome === 'ran') return;
		}
	}

	/** The look for missed ticks, which the worker makes every 10 s, now. */
	catchUp(): void {
		this.command({ cloudtelTest: 'catchUp' });
	}

	/** The look for spools of processes that are gone, which the worker makes every 5 s, now. */
	lookForSpools(): void {
		this.command({ cloudtelTest: 'spools' });
	}

	/** The outbox's look for due forwards (a replay's), which the worker makes every 30 s at most, now. */
	lookAtOutbox(): void {
		this.command({ cloudtelTest: 'outbox' });
	}

	/** The worker's clock (worker/src/daemon/daemonClock.ts) `ms` ahead: what it waits on is due. */
	advanceClock(ms: number): void {
		this.command({ cloudtelTest: 'clock', advanceMs: ms });
	}

	private command(message: Record<string, unknown>): void {
		if (!this.child.send)
			throw new Error(
				'this worker was started without the test control (WorkerProcess.start gives it)',
			);
		this.child.send(message);
	}

	/** A worker spawned otherwise (its stdout and stderr piped), once it has started. */
	static async started(child: ChildProcess): Promise<WorkerProcess> {
		const worker = new WorkerProcess(child);
		await Promise.race([
			// A start on a loaded CI machine (three files at once beside n8n's e2e) has taken over 15 s.
			worker
				.waitFor((l) => l.msg === 'worker started', 40_000)
				.catch((error: Error) => {
					const last = worker.logs.slice(-5).map((l) => JSON.stringify(l));
					throw new Error(
						`the worker did not say it started: ${error.message}; its last lines: ${last.join(' ') || 'none'}; stderr: ${worker.stderr || 'none'}`,
					);
				}),
			worker.exited.then((code) => {
				throw new Error(`the worker exited ${code} before it started: ${worker.stderr}`);
			}),
		]);
		return worker;
	}

	waitFor(
		predicate: (line: LogLine) => boolean,
		timeoutMs = 30_000,
		what = 'a log line',
	): Promise<LogLine> {
		return until(() => this.logs.find(predicate), timeoutMs, what);
	}

	count(predicate: (line: LogLine) => boolean): number {
		return this.logs.filter(predicate).length;
	}

	async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
		if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
		return this.exited;
	}
}

export function writeConfig(dir: string, config: unknown, name = 'worker.config.yaml'): string {
	const path = join(dir, name);
	writeFileSync(
		path,
		name.endsWith('.json') ? JSON.stringify(config, null, '\t') : YAML.stringify(config),
	);
	return path;
}

/**
 * A worker in a folder of its own (its store `worker.db` there) on a free port, against `sandbox`,
 * the account and the callback `secret` given by the environment; `settings` complete its config.
 */
export async function workerOnSandbox(
	sandbox: RunningSandbox,
	secret: string,
	settings: Record<string, unknown>,
): Promise<{ dir: string; port: number; worker: WorkerProcess }> {
	const dir = tempDir();
	const port = await freePort();
	const config = writeConfig(dir, {
		provider: { baseUrl: sandbox.url },
		db: 'worker.db',
		server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
		...settings,
	});
	const worker = await WorkerProcess.start(config, {
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: secret,
	});
	return { dir, port, worker };
}

/** The sandbox's control API and its /v2 interface, as the demo account. */
export class SandboxDriver {
	constructor(readonly sandbox: RunningSandbox) {}

	get auth(): string {
		return basicAuthorization(this.sandbox.demo.AccountSid, this.sandbox.demo.AuthToken);
	}

	async messages(): Promise<any[]> {
		return allSandboxMessages(this.sandbox.url, { AccountSid: this.sandbox.demo.AccountSid });
	}

	async outbox(): Promise<{ Callbacks: any[]; Sms: any[]; Emails: any[] }> {
		return (await fetch(`${this.sandbox.url}/_sandbox/outbox`)).json() as never;
	}

	/** A reply from `from` to the leased number `to`; returns the inbound MessageSid. */
	async reply(from: string, to: string, text: string): Promise<string> {
		const res = await fetch(`${this.sandbox.url}/_sandbox/replies`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ From: from, To: to, Text: text }),
		});
		const body = (await res.json()) as { MessageSid: string };
		if (res.status !== 200) throw new Error(`reply refused: ${res.status} ${JSON.stringify(body)}`);
		return body.MessageSid;
	}

	/** Sends one message from a leased number, as a campaign of the worker's would. */
	async send(message: Record<string, unknown>): Promise<any> {
		const res = await fetch(
			`${this.sandbox.url}/v2/Properties/${this.sandbox.demo.PropertySid}/Messages`,
			{
				method: 'POST',
				headers: { authorization: this.auth, 'content-type': 'application/json' },
				body: JSON.stringify(message),
			},
		);
		const body = (await res.json()) as { Message: any };
		if (res.status !== 200) throw new Error(`send refused: ${res.status} ${JSON.stringify(body)}`);
		return body.Message;
	}

	/** Whether every callback attempt for this MessageSid so far was answered 2xx at last. */
	async callbackDelivered(messageSid: string): Promise<boolean> {
		return (await this.outbox()).Callbacks.some(
			(c) => c.MessageSid === messageSid && c.Delivered === true,
		);
	}
}
