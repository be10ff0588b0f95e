import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allSandboxMessages } from '../../support/sandboxMessages';
import { until } from '../daemon/harness';
import { tempDir } from './harness';

/**
 * The worker's package as someone without the repository gets it: `npm pack` of worker/,
 * installed into an empty prefix with npm's own global install, its dependencies from npm's
 * cache where the repository's install left them. One install serves every command. It packs worker/dist as the last `npm run build` left it (`npm test` builds
 * first).
 */
const ROOT = resolve(__dirname, '../../..');
const WORKER = join(ROOT, 'worker');
const INSTALL_MS = 20 * 60_000;

let dir: string;
let bin: string;
let tarball: string;
const children: ChildProcess[] = [];

function run(args: string[], cwd: string, env: Record<string, string> = {}) {
	return spawnSync(bin, args, {
		cwd,
		encoding: 'utf8',
		env: {
			...process.env,
			CLOUDTEL_BASE_URL: '',
			CLOUDTEL_ACCOUNT_SID: '',
			CLOUDTEL_AUTH_TOKEN: '',
			...env,
		},
		timeout: 120_000,
	});
}

/** Starts a long-running command; resolves with it and its first line of stdout. */
async function start(
	args: string[],
	cwd: string,
	env: Record<string, string> = {},
): Promise<{ child: ChildProcess; first: string; lines: string[] }> {
	const child = spawn(bin, args, {
		cwd,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	children.push(child);
	const lines: string[] = [];
	const reader = createInterface({ input: child.stdout! });
	reader.on('line', (l) => lines.push(l));
	const [first] = (await Promise.race([
		once(reader, 'line'),
		once(child, 'exit').then(([code]) =>
			Promise.reject(new Error(`${args.join(' ')} exited ${code}`)),
		),
	])) as [string];
	return { child, first, lines };
}

async function stop(child: ChildProcess): Promise<number | null> {
	if (child.exitCode !== null) return child.exitCode;
	child.kill('SIGTERM');
	const [code] = (await once(child, 'exit')) as [number | null];
	return code;
}

/** A command run without blocking this process: vitest's worker must stay responsive through a minutes-long install. */
async function runAsync(
	command: string,
	args: string[],
	cwd: string,
	timeoutMs: number,
): Promise<void> {
	const child = spawn(command, args, {
		cwd,
		stdio: ['ignore', 'inherit', 'inherit'],
		timeout: timeoutMs,
	});
	const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
	if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code ?? signal}`);
}

/**
 * better-sqlite3's native binding for the installed package: the repository's own build when
 * the versions agree, else built there as a user's install would (with its script allowed).
 */
async function provideSqliteBinding(packageDir: string): Promise<void> {
	const installed = require.resolve('better-sqlite3/package.json', { paths: [packageDir] });
	const ours = require.resolve('better-sqlite3/package.json', { paths: [WORKER] });
	const version = (file: string) =>
		(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
	const binding = join('build', 'Release', 'better_sqlite3.node');
	if (version(installed) === version(ours) && existsSync(join(dirname(ours), binding))) {
		mkdirSync(join(dirname(installed), 'build', 'Release'), { recursive: true });
		copyFileSync(join(dirname(ours), binding), join(dirname(installed), binding));
	} else {
		await runAsync(
			'npm',
			['rebuild', 'better-sqlite3', '--allow-scripts=better-sqlite3'],
			packageDir,
			INSTALL_MS,
		);
	}
}

beforeAll(async () => {
	if (
		!existsSync(join(WORKER, 'dist/worker/src/cli.js')) ||
		!existsSync(join(WORKER, 'dist/sandbox/src/index.js'))
	) {
		execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
	}
	dir = tempDir();
	// --ignore-scripts: the package's prepack rebuilds the whole repository, which here would
	// rewrite worker/dist under the other test files using it; the build above (or npm test's) is it.
	const packed = execFileSync(
		'npm',
		['pack', '--ignore-scripts', '--json', '--pack-destination', dir],
		{ cwd: WORKER, encoding: 'utf8' },
	);
	tarball = join(dir, (JSON.parse(packed) as { filename: string }[])[0].filename);
	const prefix = join(dir, 'prefix');
	const empty = join(dir, 'empty');
	mkdirSync(empty);
	// The versions npm's cache already holds from the repository's own install (no registry
	// round trip for what it has), and no install script: better-sqlite3's compile takes a
	// minute or more, and the binding the repository built serves the same version as is.
	await runAsync(
		'npm',
		[
			'install',
			'-g',
			'--prefix',
			prefix,
			'--prefer-offline',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			tarball,
		],
		empty,
		INSTALL_MS,
	);
	bin = join(prefix, 'bin', 'cloudtel');
	await provideSqliteBinding(join(prefix, 'lib', 'node_modules', '@cloudtel', 'worker'));
}, INSTALL_MS + 120_000);

afterAll(async () => {
	for (const child of children) await stop(child);
});

describe('the cloudtel CLI installed from its npm pack, alone', () => {
	it('holds the built CLI, api, the sandbox and the demo CSV, and no TypeScript sources', () => {
		const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
		for (const file of [
			'package/bin/cloudtel.js',
			'package/dist/worker/src/cli.js',
			'package/dist/api/index.js',
			'package/dist/sandbox/src/index.js',
			'package/dist/examples/demo-campaign.csv',
		])
			expect(listing).toContain(file);
		expect(listing.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
		expect(existsSync(bin)).toBe(true);
	});

	it('carries what a package page needs: LICENSE, repository, homepage, bugs, README links that resolve off GitHub, engines its dependencies accept', () => {
		const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
		expect(listing).toContain('package/LICENSE');
		const manifest = JSON.parse(
			execFileSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
		) as Record<string, any>;
		expect(manifest.repository).toMatchObject({
			url: expect.stringMatching(/^git\+https:\/\/github\.com\//),
			directory: 'worker',
		});
		expect(manifest.homepage).toMatch(/^https:\/\//);
		expect(manifest.bugs.url).toMatch(/^https:\/\//);
		expect(manifest.scripts.prepack).toMatch(/build\.mjs/);
		const readme = execFileSync('tar', ['xzOf', tarball, 'package/README.md'], {
			encoding: 'utf8',
		});
		const relative = [...readme.matchAll(/\]\(([^)]+)\)/g)]
			.map((m) => m[1])
			.filter((href) => !/^(https?:|#)/.test(href));
		expect(relative).toEqual([]);
		// Every installed dependency's own engines range must admit the package's lowest Node.
		const lowest = /^>=\s*(\d+)/.exec(manifest.engines.node)![1];
		const prefix = join(
			dir,
			'prefix',
			'lib',
			'node_modules',
			'@cloudtel',
			'worker',
			'node_modules',
		);
		const tooNew: string[] = [];
		const walk = (modules: string) => {
			if (!existsSync(modules)) return;
			for (const entry of readdirSync(modules)) {
				const folders = entry.startsWith('@')
					? readdirSync(join(modules, entry)).map((e) => join(modules, entry, e))
					: [join(modules, entry)];
				for (const folder of folders) {
					const file = join(folder, 'package.json');
					if (!existsSync(file)) continue;
					const dep = JSON.parse(readFileSync(file, 'utf8')) as {
						name: string;
						engines?: { node?: string };
					};
					const min = /^>=\s*(\d+)/.exec(dep.engines?.node ?? '')?.[1];
					if (min && Number(min) > Number(lowest)) tooNew.push(`${dep.name} ${dep.engines!.node}`);
					walk(join(folder, 'node_modules'));
				}
			}
		};
		walk(prefix);
		expect(tooNew).toEqual([]);
	});

	it('runs the demo: a sandbox of its own and a campaign against it', () => {
		const cwd = tempDir();
		const demo = run(['demo', '--json'], cwd);
		expect(demo.stderr).toBe('');
		expect(demo.status).toBe(0);
		const summary = demo.stdout
			.split('\n')
			.filter((l) => l.startsWith('{'))
			.map((l) => JSON.parse(l) as Record<string, any>)
			.find((e) => e.event === 'summary');
		expect(summary?.rows.accepted).toBeGreaterThan(100);
		expect(readdirSync(cwd)).toEqual([]);
	});

	it('starts the sandbox, runs a campaign against it, and runs the worker daemon with it', async () => {
		const cwd = tempDir();
		const sandbox = await start(['sandbox', '--port', '0', '--json'], cwd);
		const info = JSON.parse(sandbox.first) as {
			url: string;
			AccountSid: string;
			AuthToken: string;
			PropertySid: string;
		};
		const env = {
			CLOUDTEL_BASE_URL: info.url,
			CLOUDTEL_ACCOUNT_SID: info.AccountSid,
			CLOUDTEL_AUTH_TOKEN: info.AuthToken,
		};
		writeFileSync(
			join(cwd, 'list.csv'),
			'Phone,Name\n+61491570101,Ann\n+61491570102,Bo\n0491570103,Cy\n',
		);

		const campaign = run(
			[
				'campaign',
				'run',
				'--csv',
				'list.csv',
				'--property',
				info.PropertySid,
				'--text',
				'Hi {{Name}}',
				'--default-country',
				'AU',
				'--db',
				'c.db',
				'--json',
			],
			cwd,
			env,
		);
		expect(campaign.stderr).toBe('');
		expect(campaign.status).toBe(0);
		const sent = await allSandboxMessages(info.url, { AccountSid: info.AccountSid });
		expect(sent.map((m) => m.To).sort()).toEqual(['+61491570101', '+61491570102', '+61491570103']);

		writeFileSync(
			join(cwd, 'worker.yaml'),
			[
				'db: w.db',
				'server: { publicUrl: "http://127.0.0.1:1", port: 0, host: 127.0.0.1, secret: "0123456789abcdef" }',
				'campaigns:',
				`  - { name: weekly, cron: "0 9 * * 1", csv: list.csv, property: ${info.PropertySid}, text: "Hi {{Name}}", defaultCountry: AU }`,
				'',
			].join('\n'),
		);
		const check = run(['worker', '--config', 'worker.yaml', '--check'], cwd, env);
		expect(check.stdout).toMatch(/worker\.yaml: valid; campaigns: 1, reply rules: 0/);
		expect(check.status).toBe(0);
		const worker = await start(['worker', '--config', 'worker.yaml'], cwd, env);
		const started = await until(
			() =>
				worker.lines
					.map((l) => JSON.parse(l) as { msg: string; port: number })
					.find((l) => l.msg === 'worker started'),
			30_000,
			'the worker to start',
		);
		expect((await fetch(`http://127.0.0.1:${started.port}/health`)).status).toBe(200);
		expect(await stop(worker.child)).toBe(0);
		expect(await stop(sandbox.child)).toBe(0);
	}, 120_000);
});
