// Installs the built community package (n8n-nodes-cloudtel) into an n8n user folder the way
// that n8n line's Community Nodes panel does, from the packed tarball (`npm pack`), so every
// run proves what users get: the files `npm pack` ships, installed by npm in ~/.n8n/nodes.
// - n8n 2.x (community-packages.service downloadPackage): unpacks the tarball into
//   nodes/node_modules/<name>, drops devDependencies, peerDependencies and
//   optionalDependencies from its package.json, runs `npm install --install-strategy=shallow
//   --ignore-scripts=true --package-lock=false ...` inside that folder, then records the
//   version in nodes/package.json.
// - n8n 1.x: `npm init -y` in a new nodes folder, then `npm install <name>@<version>` there,
//   which installs the package's non-optional peer dependencies as well (why n8n-workflow's
//   peer entry is optional: n8n-workflow 2.x pulls isolated-vm, which does not build there).
// n8n then scans nodes/node_modules and loads the nodes and credentials of the package.json
// `n8n` section under the package's own name: node types are `n8n-nodes-cloudtel.cloudTel`,
// exactly as for a user (N8N_CUSTOM_EXTENSIONS would load them as `CUSTOM.cloudTel`).
// npm runs with n8n's PATH (n8n's Node first), as the panel's child process does.
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
export const packageName = packageJson.name;
export const nodeType = (name) => `${packageName}.${name}`;

export function assertBuilt() {
	const missing = [...packageJson.n8n.nodes, ...packageJson.n8n.credentials].filter(
		(file) => !existsSync(join(repoRoot, file)),
	);
	if (missing.length)
		throw new Error(
			`the package is not built (missing ${missing.join(', ')}): run \`npm run build\` first`,
		);
}

const quiet = {
	npm_config_update_notifier: 'false',
	npm_config_fund: 'false',
	npm_config_audit: 'false',
	npm_config_loglevel: 'error',
};

/** npm's environment without what `npm run` sets about this repository (it would point npm back here). */
export function cleanNpmEnv(extra = {}) {
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
	return { ...env, ...quiet, ...extra };
}

function npm(args, cwd, env) {
	return execFileSync('npm', args, {
		cwd,
		env,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 300_000,
	});
}

let packed;
/** `npm pack` of the built package, once per process: the path of the .tgz. */
export function packTarball() {
	assertBuilt();
	if (packed && existsSync(packed)) return packed;
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-pack-'));
	const [info] = JSON.parse(
		npm(['pack', '--json', '--pack-destination', dir], repoRoot, cleanNpmEnv()),
	);
	packed = join(dir, info.filename);
	return packed;
}

/**
 * Installs the tarball into `<userFolder>/.n8n/nodes` as n8n `major`'s panel does and returns
 * the package's folder. `pathDir` is the bin folder of the Node that runs n8n.
 */
export function installPackage(userFolder, { major = 2, pathDir, tarball = packTarball() } = {}) {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', packageName);
	mkdirSync(nodesDir, { recursive: true });
	const env = cleanNpmEnv(pathDir ? { PATH: `${pathDir}:${process.env.PATH}` } : {});
	if (major < 2) {
		if (!existsSync(join(nodesDir, 'package.json'))) npm(['init', '-y'], nodesDir, env);
		npm(['install', tarball], nodesDir, env);
		return target;
	}
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const manifestPath = join(target, 'package.json');
	const {
		devDependencies: _d,
		peerDependencies: _p,
		optionalDependencies: _o,
		...manifest
	} = JSON.parse(readFileSync(manifestPath, 'utf8'));
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	npm(
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		target,
		env,
	);
	const listPath = join(nodesDir, 'package.json');
	const list = existsSync(listPath)
		? JSON.parse(readFileSync(listPath, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	list.dependencies = { ...list.dependencies, [packageName]: manifest.version };
	writeFileSync(listPath, JSON.stringify(list, null, 2));
	return target;
}

/** installPackage()'s options for an n8n install (what ensureN8n() returned): its line, its Node. */
export const panelOf = (install) => ({
	major: install.major,
	pathDir: join(install.nodeDir, 'bin'),
});

/** The package folders under `dir`/node_modules (scoped ones as @scope/name), nested ones included. */
export function installedPackages(dir) {
	const out = [];
	const walk = (modules, prefix = '') => {
		if (!existsSync(modules)) return;
		for (const entry of readdirSync(modules)) {
			if (entry.startsWith('.')) continue;
			if (entry.startsWith('@')) {
				for (const scoped of readdirSync(join(modules, entry))) {
					out.push(`${prefix}${entry}/${scoped}`);
					walk(join(modules, entry, scoped, 'node_modules'), `${prefix}${entry}/${scoped}>`);
				}
			} else {
				out.push(`${prefix}${entry}`);
				walk(join(modules, entry, 'node_modules'), `${prefix}${entry}>`);
			}
		}
	};
	walk(join(dir, 'node_modules'));
	return out;
}

/** Every resource.operation pair the built CloudTel node offers, read from its description. */
export function nodeOperations() {
	const require = createRequire(import.meta.url);
	const { CloudTel } = require(join(repoRoot, 'dist', 'nodes', 'CloudTel', 'CloudTel.node.js'));
	const { properties } = new CloudTel().description;
	const resources = properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	const out = [];
	for (const resource of resources) {
		const operation = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		);
		for (const option of operation?.options ?? []) out.push(`${resource}.${option.value}`);
	}
	return out;
}
