// One n8n instance: its own user folder (settings, SQLite DB, community package), driven
// through n8n's CLI (import, publish, execute) and, for webhooks, a running `n8n start`.
// n8n runs on Node 24 from the cache; the harness itself may run on Node 20.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../support/freePort.mjs';
import { CommandError, run, spawnTracked, stop, tail } from './procs.mjs';

export { freePort };

export class N8n {
	/**
	 * @param install what ensureN8n() returned
	 * @param userFolder an empty folder of this instance's own
	 */
	constructor(install, userFolder, { extraEnv = {} } = {}) {
		this.install = install;
		this.userFolder = userFolder;
		this.extraEnv = extraEnv;
		this.logFile = join(userFolder, 'n8n.log');
		this.server = null;
		this.port = null;
		this.brokerPort = null;
		mkdirSync(join(userFolder, 'import'), { recursive: true });
	}

	async init() {
		this.port = await freePort();
		// The task broker (Code node runners) listens on a port of its own: one per instance,
		// so that two instances (or a CLI run beside a server) never collide on 5679. Neither
		// is bound yet, so the second draw may return the first.
		do this.brokerPort = await freePort();
		while (this.brokerPort === this.port);
		return this;
	}

	get url() {
		return `http://127.0.0.1:${this.port}`;
	}

	env() {
		// N8N_* settings of the caller's environment pass through (N8N_EXPRESSION_ENGINE, ...);
		// those that keep instances apart and off the network are set here and win.
		const passed = Object.fromEntries(
			Object.entries(process.env).filter(
				([key]) => key.startsWith('N8N_') || key.startsWith('DB_SQLITE_'),
			),
		);
		return {
			...passed,
			PATH: `${join(this.install.nodeDir, 'bin')}:${process.env.PATH}`,
			HOME: process.env.HOME,
			TMPDIR: process.env.TMPDIR ?? '/tmp',
			TZ: process.env.TZ ?? 'UTC',
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: 'cloudtel-e2e-not-a-secret',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			// No network beyond loopback: keep n8n from phoning home.
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			EXTERNAL_FRONTEND_HOOKS_URLS: '',
			N8N_HOST: '127.0.0.1',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_PROTOCOL: 'http',
			WEBHOOK_URL: `${this.url}/`,
			N8N_EDITOR_BASE_URL: `${this.url}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			// `n8n execute` prints the execution through the logger at level info.
			N8N_LOG_LEVEL: process.env.CLOUDTEL_N8N_LOG_LEVEL ?? 'info',
			N8N_LOG_OUTPUT: 'console',
			DB_SQLITE_POOL_SIZE: '2',
			// Fetches a catalogue from api.n8n.io on start: nothing these runs need, only noise offline.
			N8N_DISABLED_MODULES: 'mcp-registry',
			...this.extraEnv,
		};
	}

	/** Runs `n8n <args>` to completion. */
	async cli(args, { timeoutMs = 180_000, allowFailure = false, stdoutFile, onSpawn } = {}) {
		appendFileSync(this.logFile, `\n$ n8n ${args.join(' ')}\n`);
		return run(this.install.nodeBin, [this.install.n8nBin, ...args], {
			cwd: this.userFolder,
			env: this.env(),
			timeoutMs,
			logFile: this.logFile,
			allowFailure,
			stdoutFile,
			onSpawn,
		});
	}

	async importWorkflow(workflow) {
		const file = join(this.userFolder, 'import', `workflow-${workflow.id}.json`);
		writeFileSync(file, JSON.stringify(workflow, null, 2));
		await this.cli(['import:workflow', `--input=${file}`]);
		return workflow.id;
	}

	async importCredentials(credentials) {
		const file = join(this.userFolder, 'import', `credentials-${credentials[0].id}.json`);
		writeFileSync(file, JSON.stringify(credentials, null, 2));
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	/**
	 * Publishes (activates) a workflow; a running server picks it up only on its next start.
	 * n8n 1.x has no publish command: there a workflow is activated.
	 */
	async publish(id) {
		if (this.install.major < 2) await this.cli(['update:workflow', `--id=${id}`, '--active=true']);
		else await this.cli(['publish:workflow', `--id=${id}`]);
	}

	/**
	 * Runs a workflow through `n8n execute` and returns the execution ({data: {resultData}},
	 * status). A failed execution resolves too (status "error"): scenarios assert on it.
	 * `onSpawn` gets the `n8n execute` process as it starts (a scenario that kills it midway).
	 */
	async execute(id, { timeoutMs = 300_000, onSpawn } = {}) {
		const stdoutFile = join(this.userFolder, `execute-${id}.out`);
		const result = await this.cli(['execute', `--id=${id}`, '--rawOutput'], {
			timeoutMs,
			allowFailure: true,
			stdoutFile,
			onSpawn,
		});
		const execution = parseExecution(result.stdout) ?? parseExecution(result.stderr);
		if (!execution) {
			throw new CommandError(
				`n8n execute --id=${id} printed no execution (exit ${result.code}):\n${tail(result.stdout + result.stderr)}`,
				result,
			);
		}
		// n8n 1.x prints the run before its status is final ("running"): it failed when it
		// carries an error, as 2.x's status says.
		if (this.install.major < 2)
			execution.status = execution.data.resultData.error ? 'error' : 'success';
		return execution;
	}

	/**
	 * Starts `n8n start` and resolves once the editor is up and active workflows are registered.
	 * `command` and `ready` start another kind of process (queue mode: `worker`, `webhook`)
	 * and name the line it prints once it serves; `healthy` false skips the HTTP check (a
	 * worker serves none).
	 */
	async start({
		timeoutMs = 180_000,
		echo = false,
		command = 'start',
		ready = 'Editor is now accessible via',
		healthy = true,
	} = {}) {
		appendFileSync(this.logFile, `\n$ n8n ${command}\n`);
		const child = spawnTracked(this.install.nodeBin, [this.install.n8nBin, command], {
			cwd: this.userFolder,
			env: this.env(),
		});
		this.server = child;
		let output = '';
		const started = new Promise((resolve, reject) => {
			const onData = (chunk) => {
				const text = chunk.toString();
				output += text;
				appendFileSync(this.logFile, text);
				if (echo) process.stdout.write(text);
				// Printed after the HTTP server listens and the active workflows are activated.
				if (output.includes(ready)) resolve();
			};
			child.stdout.on('data', onData);
			child.stderr.on('data', onData);
			child.once('exit', (code) =>
				reject(new Error(`n8n ${command} exited (${code}) before it was ready:\n${tail(output)}`)),
			);
		});
		const timer = sleep(timeoutMs, undefined, { ref: false }).then(() => {
			throw new Error(`n8n ${command} not ready after ${timeoutMs} ms:\n${tail(output)}`);
		});
		try {
			await Promise.race([started, timer]);
			if (healthy) await this.waitHealthy(30_000);
		} catch (error) {
			await this.stopServer();
			throw error;
		}
		return this;
	}

	async waitHealthy(timeoutMs) {
		const until = Date.now() + timeoutMs;
		for (;;) {
			try {
				const res = await fetch(`${this.url}/healthz/readiness`);
				if (res.ok) return;
			} catch {
				// not listening yet
			}
			if (Date.now() > until)
				throw new Error(`n8n at ${this.url} not healthy after ${timeoutMs} ms`);
			await sleep(250);
		}
	}

	async stopServer() {
		const child = this.server;
		this.server = null;
		await stop(child, 15_000);
	}
}

/**
 * `n8n execute --rawOutput` prints log lines, then the execution as indented JSON (a line
 * "{" up to a line "}"); a failed run logs the same JSON through the logger.
 */
export function parseExecution(text) {
	const lines = text.split('\n');
	for (let start = 0; start < lines.length; start++) {
		if (lines[start] !== '{' && !lines[start].endsWith(' {')) continue;
		for (let end = start + 1; end < lines.length; end++) {
			if (lines[end] !== '}') continue;
			try {
				const parsed = JSON.parse(['{', ...lines.slice(start + 1, end + 1)].join('\n'));
				if (parsed && typeof parsed === 'object' && parsed.data?.resultData) return parsed;
			} catch {
				// not this closing brace
			}
		}
	}
	return null;
}
