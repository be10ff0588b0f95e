// A reader of the READMEs: a fresh folder holding a copy of examples/, `cloudtel` and `npx
// cloudtel` being the built CLI, on a terminal (util-linux `script`), each README's own sandbox
// and worker started by its daemon blocks. The ports the READMEs name (4010 the sandbox, 8080
// the worker, 2525 the mail relay) become free ones, in the blocks and the examples alike.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { freePort } from '../../support/freePort.mjs';
import { containsRun, shellBlocks, terminalLines, type ShellBlock } from './shellBlocks';
import { tempDir } from '../../support/tempDir';

export const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'worker/bin/cloudtel.js');

/** Variables a shell keeps itself (PWD follows cd), and the ones the READMEs set. */
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_', 'P', 'W', 'HOME']);

export interface Reader {
	dir: string;
	ports: Record<string, number>;
	daemons: ChildProcess[];
}

export async function newReader(): Promise<Reader> {
	const dir = tempDir('cloudtel-readme-');
	const ports = { 4010: await freePort(), 8080: await freePort(), 2525: await freePort() };
	const reader = { dir, ports, daemons: [] };
	cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
	for (const file of readdirSync(join(dir, 'examples'))) {
		const path = join(dir, 'examples', file);
		writeFileSync(path, withPorts(reader, readFileSync(path, 'utf8')));
	}
	const bin = join(dir, '.bin');
	mkdirSync(bin);
	writeFileSync(join(bin, 'cloudtel'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
		mode: 0o755,
	});
	writeFileSync(
		join(bin, 'npx'),
		`#!/bin/sh\n[ "$1" = cloudtel ] || { echo "npx $1: only npx cloudtel runs here" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${CLI}" "$@"\n`,
		{ mode: 0o755 },
	);
	// The reader's shell: nothing of cloudtel's set, the built CLI first on the PATH.
	const env = Object.entries(process.env)
		.filter(([k]) => /^[A-Za-z_]\w*$/.test(k) && !k.startsWith('CLOUDTEL_') && !SHELL_OWN.has(k))
		.map(([k, v]) => `export ${k}=${shellQuote(v ?? '')}`);
	env.push(`export PATH=${shellQuote(`${bin}:${process.env.PATH}`)}`, `export HOME=${dir}`);
	writeFileSync(join(dir, '.env.sh'), env.join('\n') + '\n');
	return reader;
}

function shellQuote(s: string): string {
	return `'${s.replace(/'/g, `'\\''`)}'`;
}

function withPorts(reader: Reader, text: string): string {
	return text.replace(/\b(4010|8080|2525)\b/g, (p) => String(reader.ports[p]));
}

/** The block as a script: the shell's variables from the blocks before, kept for those after. */
function script(reader: Reader, block: ShellBlock, name: string): string {
	const path = join(reader.dir, `.${name}.sh`);
	const env = shellQuote(join(reader.dir, '.env.sh'));
	writeFileSync(
		path,
		[
			`. ${env}`,
			`cd ${shellQuote(reader.dir)}`,
			`keep() { export -p | grep -v '^declare -x \\(PWD\\|OLDPWD\\|SHLVL\\)=' > ${env}; }`,
			'trap keep EXIT',
			'set -eo pipefail',
			withPorts(reader, block.body),
			'',
		].join('\n'),
	);
	return path;
}

function runBlock(
	reader: Reader,
	block: ShellBlock,
): Promise<{ code: number | null; output: string }> {
	const path = script(reader, block, 'block');
	// `script` gives the block a terminal, so the CLI prints what a person would see.
	const child = spawn('script', ['-qfec', `bash ${shellQuote(path)}`, '/dev/null'], {
		cwd: reader.dir,
		env: { PATH: process.env.PATH, TERM: 'xterm', HOME: reader.dir },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	// A block that never ends (a daemon not marked so) is stopped, and fails by its exit code.
	const hung = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
	return new Promise((done, fail) => {
		child.on('error', fail);
		child.on('close', (code) => {
			clearTimeout(hung);
			done({ code, output });
		});
	});
}

async function startDaemon(reader: Reader, block: ShellBlock): Promise<void> {
	const path = script(reader, block, `daemon${reader.daemons.length}`);
	const child = spawn('bash', [path], {
		cwd: reader.dir,
		env: { PATH: process.env.PATH, HOME: reader.dir },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	reader.daemons.push(child);
	let output = '';
	child.stdout!.on('data', (d) => (output += d));
	child.stderr!.on('data', (d) => (output += d));
	const url = withPorts(reader, block.daemon!);
	const until = Date.now() + 30_000;
	for (;;) {
		const ok = await fetch(url).then(
			(r) => r.ok,
			() => false,
		);
		if (ok) break;
		if (child.exitCode !== null || Date.now() > until)
			throw new Error(`${block.where}: ${url} never answered\n${output.slice(-3000)}`);
		await new Promise((r) => setTimeout(r, 100));
	}
	// What the reader pastes: the CLOUDTEL_ lines a daemon printed, word for word (a line
	// without its `export` leaves the CLI blind to it), and its PropertySid as P.
	const pasted = [...output.matchAll(/^\s*((?:export )?CLOUDTEL_[A-Z_]+=\S+)$/gm)].map(
		([, line]) => line,
	);
	const property = /PropertySid (\S+)/.exec(output)?.[1];
	if (property) pasted.push(`export P=${shellQuote(property)}`);
	if (pasted.length)
		writeFileSync(join(reader.dir, '.env.sh'), pasted.join('\n') + '\n', { flag: 'a' });
}

export async function stopDaemons(reader: Reader): Promise<void> {
	await Promise.all(
		reader.daemons.map(
			(child) =>
				new Promise<void>((done) => {
					if (child.exitCode !== null || child.signalCode !== null) return done();
					// SIGTERM lets the worker finish what is in flight; one that hangs is killed.
					const hung = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
					child.once('close', () => {
						clearTimeout(hung);
						done();
					});
					process.kill(-child.pid!, 'SIGTERM');
				}),
		),
	);
	reader.daemons = [];
}

/** Runs every shell block of a README in order; fails naming the first that did not do what it says. */
export async function runReadme(
	name: string,
	reader: Reader,
	beforeStop: () => Promise<void> = async () => {},
): Promise<ShellBlock[]> {
	const blocks = shellBlocks(join(ROOT, name), name);
	try {
		for (const block of blocks) {
			if (block.noRun) continue;
			if (block.daemon) {
				await startDaemon(reader, block);
				continue;
			}
			if (block.body.includes('campaign report --name spring --html'))
				await receiptsSettled(reader);
			const { code, output } = await runBlock(reader, block);
			const shown = `${block.where}:\n${block.body}\n--- printed:\n${output.slice(-4000)}`;
			expect(code, `exit code of ${shown}`).toBe(block.exit);
			if (block.output)
				expect(
					containsRun(terminalLines(output), block.output),
					`${block.where}: the output block after it is not what it printed:\n${block.output.join('\n')}\n--- printed:\n${output.slice(-4000)}`,
				).toBe(true);
		}
		await beforeStop();
	} finally {
		await stopDaemons(reader);
	}
	return blocks;
}

export async function until(condition: () => boolean, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!condition()) {
		if (Date.now() > end) throw new Error('timed out waiting');
		await new Promise((r) => setTimeout(r, 50));
	}
}

/**
 * The quick start's receipts all in before its report is drawn, as they are by the time a
 * person types the command: the picture and its words then hold every section.
 */
async function receiptsSettled(reader: Reader): Promise<void> {
	const end = Date.now() + 20_000;
	for (;;) {
		const report = await new Promise<string>((done) => {
			const child = spawn(
				process.execPath,
				[CLI, 'campaign', 'report', '--name', 'spring', '--json'],
				{ env: { ...process.env, CLOUDTEL_DB: join(reader.dir, 'cloudtel.db') } },
			);
			let out = '';
			child.stdout.on('data', (d) => (out += d));
			child.on('close', () => done(out));
		});
		if (/"awaitingReceipt":\s*0\b/.test(report)) return;
		if (Date.now() > end) throw new Error(`receipts never all came:\n${report.slice(0, 2000)}`);
		await new Promise((r) => setTimeout(r, 200));
	}
}

/** A mail relay on the README's port 2525 that takes anything, as aiosmtpd -n would. */
export async function mailSink(
	port: number,
): Promise<{ mails: string[]; close: () => Promise<void> }> {
	const mails: string[] = [];
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		onData(stream, _session, callback) {
			let raw = '';
			stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
			stream.on('end', () => {
				mails.push(raw.replace(/=\r?\n/g, ''));
				callback();
			});
		},
	});
	await new Promise<void>((ok, fail) => {
		server.once('error', fail);
		server.listen(port, '127.0.0.1', () => ok());
	});
	return { mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}
