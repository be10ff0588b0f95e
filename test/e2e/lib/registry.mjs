// A local npm registry for the panel test: verdaccio, pinned by test/e2e/registry/ (package.json
// and its lock) and installed, like n8n, into a cache folder outside the project keyed on
// those two files. It serves n8n-nodes-cloudtel from its own storage only (what the test
// publishes) and proxies every other package to the npm registry this machine uses. It runs
// on the Node of an n8n install (verdaccio 6 needs Node >= 22; the harness may run on 20).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { cacheRoot } from './install.mjs';
import { freePort } from './n8n.mjs';
import { cleanNpmEnv, packageName } from './package.mjs';
import { run, spawnTracked, stop, tail } from './procs.mjs';

const manifestDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'registry');
const MARKER = '.cloudtel-complete';

export async function ensureVerdaccio() {
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json'])
		hash.update(readFileSync(join(manifestDir, file)));
	const final = join(cacheRoot(), `verdaccio-${hash.digest('hex').slice(0, 16)}`);
	if (existsSync(join(final, MARKER))) return final;
	const work = `${final}.tmp-${process.pid}`;
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		copyFileSync(join(manifestDir, file), join(work, file));
	await run(
		'npm',
		['install', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'],
		{ cwd: work, env: cleanNpmEnv(), timeoutMs: 15 * 60_000, logFile: join(work, 'install.log') },
	);
	writeFileSync(join(work, MARKER), new Date().toISOString());
	try {
		renameSync(work, final);
	} catch (error) {
		if (!existsSync(join(final, MARKER))) throw error;
		rmSync(work, { recursive: true, force: true });
	}
	return final;
}

function upstream() {
	try {
		return (
			execFileSync('npm', ['config', 'get', 'registry'], {
				env: cleanNpmEnv(),
				encoding: 'utf8',
			}).trim() || 'https://registry.npmjs.org/'
		);
	} catch {
		return 'https://registry.npmjs.org/';
	}
}

/**
 * Starts verdaccio in `dir` with `nodeBin`; resolves {url, publish(tarball), close()}. The
 * test's user is created through the registry's own API (as `npm adduser` does), and its
 * token is what `publish` uses.
 */
export async function startRegistry(dir, nodeBin) {
	const home = await ensureVerdaccio();
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	mkdirSync(join(dir, 'storage'), { recursive: true });
	const config = join(dir, 'config.yaml');
	writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(join(dir, 'storage'))}`,
			'auth:',
			`  htpasswd: { file: ${JSON.stringify(join(dir, 'htpasswd'))}, max_users: 10 }`,
			'uplinks:',
			`  npmjs: { url: ${JSON.stringify(upstream())}, timeout: 60s }`,
			'packages:',
			// The package under test comes only from what the test published here.
			`  ${JSON.stringify(packageName)}: { access: $all, publish: $authenticated }`,
			"  '**': { access: $all, publish: $authenticated, proxy: npmjs }",
			'web: { enable: false }',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const child = spawnTracked(
		nodeBin,
		[
			join(home, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
			'--config',
			config,
			'--listen',
			`127.0.0.1:${port}`,
		],
		{ cwd: dir, env: { ...process.env, HOME: dir } },
	);
	let output = '';
	child.stdout.on('data', (c) => (output += c));
	child.stderr.on('data', (c) => (output += c));
	const until = Date.now() + 60_000;
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`verdaccio exited (${child.exitCode}):\n${tail(output)}`);
		try {
			if ((await fetch(`${url}/-/ping`)).ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > until) {
			await stop(child);
			throw new Error(`verdaccio not up after 60 s:\n${tail(output)}`);
		}
		await sleep(250);
	}
	const user = { name: 'cloudtel-e2e', password: 'cloudtel-e2e-password' };
	const res = await fetch(`${url}/-/user/org.couchdb.user:${user.name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...user, type: 'user', roles: [], date: new Date().toISOString() }),
	});
	const { token } = await res.json();
	if (!token) throw new Error(`verdaccio gave no token (HTTP ${res.status})`);
	const npmrc = join(dir, 'npmrc');
	writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`);
	return {
		url,
		/** `npm publish` of a tarball (a tarball runs no lifecycle scripts). */
		publish: (tarball) =>
			run(
				'npm',
				[
					'publish',
					tarball,
					'--userconfig',
					npmrc,
					'--registry',
					`${url}/`,
					'--ignore-scripts',
					'--provenance=false',
					'--loglevel=error',
				],
				{
					cwd: dir,
					env: cleanNpmEnv({ CLOUDTEL_PUBLISH_WITHOUT_PROVENANCE: '1' }),
					timeoutMs: 120_000,
				},
			),
		close: () => stop(child, 5000),
	};
}

/** The tarball with another version in its package.json: the "next release" the panel updates to. */
export function retagTarball(tarball, version, dir) {
	const unpacked = join(dir, `unpacked-${version}`);
	mkdirSync(unpacked, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	const manifestPath = join(unpacked, 'package.json');
	writeFileSync(
		manifestPath,
		JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), version }, null, 2),
	);
	const [info] = JSON.parse(
		execFileSync(
			'npm',
			['pack', unpacked, '--json', '--ignore-scripts', '--pack-destination', dir],
			{ cwd: dir, env: cleanNpmEnv(), encoding: 'utf8' },
		),
	);
	return join(dir, info.filename);
}
