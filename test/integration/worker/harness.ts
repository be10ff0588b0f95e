import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import type { RunningSandbox, SandboxOptions } from '../../../sandbox/src';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/freshBuild';
import { allSandboxMessages } from '../../support/sandboxMessages';
export { tempDir } from '../../support/tempDir';

export const CLI = resolve(__dirname, '../../../worker/bin/cloudtel.js');

// Every test file that imports this harness runs the built CLI: it is built first when stale.
beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
	/** stdout parsed as JSON lines (the non-TTY log). */
	events: Record<string, unknown>[];
}

export function writeCsv(dir: string, name: string, text: string): string {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
}

export function envFor(sandbox: RunningSandbox): Record<string, string> {
	return {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
	};
}

export interface CliOptions {
	/** Piped to standard input; without it, standard input is closed. */
	input?: string;
	/** Run as this user (root may). */
	uid?: number;
	gid?: number;
}

/** Runs the built CLI as a user would; stdout is not a terminal, so it logs JSON lines. */
export function startCli(
	args: string[],
	env: Record<string, string> = {},
	options: CliOptions = {},
): { child: ChildProcess; done: Promise<CliResult> } {
	const child = spawn(process.execPath, [CLI, ...args], {
		env: { ...process.env, ...env },
		stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
		uid: options.uid,
		gid: options.gid,
	});
	if (options.input !== undefined) child.stdin!.end(options.input);
	let stdout = '';
	let stderr = '';
	child.stdout!.on('data', (d) => (stdout += d));
	child.stderr!.on('data', (d) => (stderr += d));
	const done = new Promise<CliResult>((resolveDone) => {
		child.on('close', (code) => {
			const events = stdout.split('\n').flatMap((l) => {
				try {
					return l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : [];
				} catch {
					return [];
				}
			});
			resolveDone({ code, stdout, stderr, events });
		});
	});
	return { child, done };
}

export function cli(
	args: string[],
	env: Record<string, string> = {},
	options: CliOptions = {},
): Promise<CliResult> {
	return startCli(args, env, options).done;
}

export function summaryOf(result: CliResult): {
	rows: Record<string, number>;
	total: number;
	exitCode: number;
	firstErrors: { line: number; code: string; reason: string }[];
	uncertainLines: number[];
	segments: number;
	message?: string;
} {
	const s = result.events.find((e) => e.event === 'summary');
	if (!s)
		throw new Error(
			`no summary; exit ${result.code}\nstdout: ${result.stdout.slice(-2000)}\nstderr: ${result.stderr}`,
		);
	return s as never;
}

export interface SandboxMessage {
	MessageSid: string;
	To: string;
	Text: string;
	ExternalId?: string;
	Schedule?: number;
	Status?: string;
	From?: string;
}

export async function sandboxMessages(sandbox: RunningSandbox): Promise<SandboxMessage[]> {
	return allSandboxMessages<SandboxMessage>(sandbox.url, {
		AccountSid: sandbox.demo.AccountSid,
		PropertySid: sandbox.demo.PropertySid,
	});
}

export async function withSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	return startSandbox({ port: 0, receiptDelayMs: 60_000, ...options });
}

/**
 * A sandbox (withSandbox's) started before the tests of the block this is called in and closed
 * after them: `use` gets it, with the CLI's environment for it, before the first test.
 */
export function sandboxForTests(
	use: (started: { sandbox: RunningSandbox; env: Record<string, string> }) => unknown,
): void {
	let sandbox: RunningSandbox | undefined;
	beforeAll(async () => {
		sandbox = await withSandbox();
		use({ sandbox, env: envFor(sandbox) });
	});
	afterAll(async () => sandbox?.close());
}

/** A CSV of `n` valid, distinct AU mobiles in E.164, with a Name column. */
export function numbersCsv(n: number, start = 0): string {
	let text = 'Phone,Name\n';
	for (let i = start; i < start + n; i++) text += `+614${String(10_000_000 + i).slice(-8)},N${i}\n`;
	return text;
}

export function waitFor(
	predicate: () => boolean | Promise<boolean>,
	timeoutMs = 20_000,
	everyMs = 50,
): Promise<void> {
	const until = Date.now() + timeoutMs;
	return new Promise((resolveWait, reject) => {
		const tick = async () => {
			if (await predicate()) return resolveWait();
			if (Date.now() > until) return reject(new Error('timed out waiting'));
			setTimeout(tick, everyMs);
		};
		void tick();
	});
}
