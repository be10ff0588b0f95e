// `npm run dev` (test/e2e/dev.mjs) as a user runs it: started in a process group of its own,
// read until it prints its banner, stopped with the Ctrl-C a terminal sends to its group.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './package.mjs';
import { spawnTracked, stop, tail } from './procs.mjs';

const READY = 'Ctrl-C stops both.';

/** What the banner tells the user: the addresses, the login and the demo account. */
function parseBanner(text) {
	const field = (pattern) => {
		const found = text.match(pattern);
		if (!found) throw new Error(`the banner lacks ${pattern}:\n${tail(text)}`);
		return found[1];
	};
	return {
		n8nUrl: field(/n8n with the CloudTel nodes: +(http:\/\/\S+)/),
		email: field(/log in as +(\S+)/),
		password: field(/password +(\S+)/),
		sandboxUrl: field(/Sandbox \(the provider's emulator\): +(http:\/\/\S+)/),
		AccountSid: field(/AccountSid +(\S+)/),
		AuthToken: field(/AuthToken +(\S+)/),
		PropertySid: field(/PropertySid +(\S+)/),
		messagesUrl: field(/messages +(http:\/\/\S+)/),
	};
}

/**
 * Starts `node test/e2e/dev.mjs` with `env` added to ours and resolves once it printed its
 * banner (or `until`, a line it prints earlier): {child, banner, startup (all it printed until
 * then), output()}.
 */
export async function startDev(env, { until = READY, timeoutMs = 240_000 } = {}) {
	const child = spawnTracked(process.execPath, [join('test', 'e2e', 'dev.mjs')], {
		cwd: repoRoot,
		env: { ...process.env, ...env },
	});
	let output = '';
	const ready = new Promise((resolve, reject) => {
		const onData = (chunk) => {
			output += chunk.toString();
			if (output.includes(until)) resolve();
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		child.once('exit', (code, signal) =>
			reject(
				new Error(
					`dev.mjs exited (${code ?? signal}) before printing "${until}":\n${tail(output)}`,
				),
			),
		);
	});
	const timer = sleep(timeoutMs, undefined, { ref: false }).then(() => {
		throw new Error(`dev.mjs did not print "${until}" within ${timeoutMs} ms:\n${tail(output)}`);
	});
	try {
		await Promise.race([ready, timer]);
	} catch (error) {
		await stop(child, 5000);
		throw error;
	}
	return {
		child,
		banner: until === READY ? parseBanner(output) : undefined,
		startup: output,
		output: () => output,
	};
}

/**
 * Ctrl-C: SIGINT to the whole group, as a terminal does; `times` 2 is an impatient user's
 * second Ctrl-C while it stops; `signal` SIGHUP the terminal closing. Resolves {code,
 * signal, waitedMs}.
 */
export async function interrupt(dev, { times = 1, signal = 'SIGINT', timeoutMs = 60_000 } = {}) {
	const { child } = dev;
	const started = Date.now();
	const exited = new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null)
			resolve({ code: child.exitCode, signal: child.signalCode });
		else child.once('exit', (code, signal) => resolve({ code, signal }));
	});
	for (let i = 0; i < times; i++) {
		if (i > 0) await sleep(20);
		process.kill(-child.pid, signal);
	}
	const timer = sleep(timeoutMs, undefined, { ref: false }).then(() => null);
	const result = await Promise.race([exited, timer]);
	if (!result) {
		await stop(child, 2000);
		throw new Error(
			`dev.mjs still running ${timeoutMs} ms after ${signal}:\n${tail(dev.output())}`,
		);
	}
	return { ...result, waitedMs: Date.now() - started };
}

/** True when something accepts connections on 127.0.0.1:port. */
export function listening(port) {
	return new Promise((resolve) => {
		const socket = connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/**
 * Processes still running for an n8n user folder: n8n and its task runners run in it or
 * carry it in their environment.
 */
export function processesOf(userFolder) {
	const found = [];
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const cwd = readlinkSync(`/proc/${pid}/cwd`);
			const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
			if (cwd === userFolder || environ.includes(`N8N_USER_FOLDER=${userFolder}`)) {
				found.push({
					pid: Number(pid),
					command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(),
				});
			}
		} catch {
			// gone meanwhile, or not ours to read
		}
	}
	return found;
}
