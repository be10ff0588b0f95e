// Child processes of the harness. Each runs in its own process group (n8n starts task-runner
// children of its own), is tracked, and is killed with its group when the harness exits for
// any reason, so a failed or interrupted run leaves nothing behind.
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';

const live = new Set();

function killGroup(child, signal) {
	if (child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

process.on('exit', () => {
	for (const child of live) killGroup(child, 'SIGKILL');
});
const cleanups = [];
/** Registers an async clean-up step run on Ctrl-C / SIGTERM / SIGHUP before the harness exits. */
export function onInterrupt(fn) {
	cleanups.push(fn);
}
// 130 says "interrupted" (a test run cut short); a command that runs until Ctrl-C (`npm run
// dev`) ends normally that way: 0, for whoever runs it directly (npm itself exits 130 on
// Ctrl-C whatever its script's code).
let interruptExitCode = 130;
/** The exit code once Ctrl-C / SIGTERM / SIGHUP's clean-up is done. */
export function setInterruptExitCode(code) {
	interruptExitCode = code;
}
let interrupted = false;
// SIGHUP: the terminal closed. Each child runs in a session of its own, out of the terminal's
// reach, so whatever ends the harness must end them.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, async () => {
		// A second Ctrl-C while cleaning up: no more waiting, and still nothing left behind.
		if (interrupted) {
			await Promise.all([...live].map((child) => stop(child, 0)));
			process.exit(interruptExitCode);
		}
		interrupted = true;
		for (const fn of cleanups.reverse())
			await Promise.resolve()
				.then(fn)
				.catch(() => {});
		await Promise.all([...live].map((child) => stop(child, 3000)));
		process.exit(interruptExitCode);
	});
}

/** Spawns a tracked child in its own process group. */
export function spawnTracked(command, args, options = {}) {
	const child = spawn(command, args, {
		...options,
		detached: true,
		stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
	});
	live.add(child);
	child.once('exit', () => live.delete(child));
	child.once('error', () => live.delete(child));
	return child;
}

/** Stops a child and its group: SIGTERM, then SIGKILL after graceMs. */
export function stop(child, graceMs = 10_000) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
		child.once('exit', () => {
			clearTimeout(timer);
			// Stragglers in the group (task runners) go too.
			killGroup(child, 'SIGKILL');
			resolve();
		});
		killGroup(child, 'SIGTERM');
	});
}

export class CommandError extends Error {
	constructor(message, result) {
		super(message);
		this.result = result;
	}
}

/**
 * Runs a command to completion. Resolves {code, signal, stdout, stderr}; rejects with a
 * CommandError on a non-zero exit (unless allowFailure) or when timeoutMs passes (the group
 * is killed). `onSpawn` gets the child as soon as it runs (a scenario that kills it midway).
 */
export function run(
	command,
	args,
	{ cwd, env, timeoutMs = 120_000, logFile, allowFailure = false, stdoutFile, onSpawn } = {},
) {
	return new Promise((resolve, reject) => {
		// A process that prints megabytes and exits (n8n execute --rawOutput of 10,000 items)
		// can lose the end of what it wrote to a pipe; written to a file, nothing is lost.
		const fd = stdoutFile ? openSync(stdoutFile, 'w') : undefined;
		const child = spawnTracked(command, args, {
			cwd,
			env,
			stdio: ['ignore', fd ?? 'pipe', 'pipe'],
		});
		if (fd !== undefined) closeSync(fd);
		onSpawn?.(child);
		let stdout = '';
		let stderr = '';
		const sink = (chunk, which) => {
			const text = chunk.toString();
			if (which === 'out') stdout += text;
			else stderr += text;
			if (logFile) appendFileSync(logFile, text);
		};
		child.stdout?.on('data', (c) => sink(c, 'out'));
		child.stderr.on('data', (c) => sink(c, 'err'));
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			stop(child, 2000);
		}, timeoutMs);
		child.once('error', (error) => {
			clearTimeout(timer);
			reject(new CommandError(`${command}: ${error.message}`, { code: -1, stdout, stderr }));
		});
		child.once('close', (code, signal) => {
			clearTimeout(timer);
			if (stdoutFile) {
				stdout = readFileSync(stdoutFile, 'utf8');
				if (logFile) appendFileSync(logFile, stdout);
			}
			const result = { code: code ?? -1, signal, stdout, stderr };
			const what = `${command} ${args.join(' ')}`.slice(0, 200);
			if (timedOut)
				reject(
					new CommandError(
						`timed out after ${timeoutMs} ms: ${what}\n${tail(stdout + stderr)}`,
						result,
					),
				);
			else if (code !== 0 && !allowFailure)
				reject(
					new CommandError(`exit ${code ?? signal}: ${what}\n${tail(stdout + stderr)}`, result),
				);
			else resolve(result);
		});
	});
}

export function tail(text, lines = 30) {
	return text.split('\n').slice(-lines).join('\n');
}
