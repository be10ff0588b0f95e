// Puts the built community package (n8n-nodes-cloudtel) where n8n 2.x looks for installed
// community packages: <user folder>/.n8n/nodes/node_modules/<name>. n8n scans that folder at
// start-up (community-packages module, scanDirectoryForPackages) and loads the nodes and
// credentials listed in the package.json `n8n` section, under the package's own name, so
// node types are `n8n-nodes-cloudtel.cloudTel`, exactly as for a user who installed it.
// (N8N_CUSTOM_EXTENSIONS would load the files as `CUSTOM.cloudTel` instead.)
// A copy, not a symlink: the package must resolve n8n-workflow from n8n, as an installed
// package does, not the repository's own dev copy.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
export const packageName = packageJson.name;
export const nodeType = (name) => `${packageName}.${name}`;

export function assertBuilt() {
	const missing = [...packageJson.n8n.nodes, ...packageJson.n8n.credentials].filter((file) => !existsSync(join(repoRoot, file)));
	if (missing.length) throw new Error(`the package is not built (missing ${missing.join(', ')}): run \`npm run build\` first`);
}

export function installPackage(userFolder) {
	assertBuilt();
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', packageName);
	mkdirSync(target, { recursive: true });
	// What `npm pack` would ship: package.json and the `files` entries.
	writeFileSync(join(target, 'package.json'), JSON.stringify(packageJson, null, 2));
	for (const entry of packageJson.files) {
		if (existsSync(join(repoRoot, entry))) cpSync(join(repoRoot, entry), join(target, entry), { recursive: true });
	}
	if (!existsSync(join(nodesDir, 'package.json'))) {
		writeFileSync(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	return target;
}

/** Every resource.operation pair the built CloudTel node offers, read from its description. */
export function nodeOperations() {
	const require = createRequire(import.meta.url);
	const { CloudTel } = require(join(repoRoot, 'dist', 'nodes', 'CloudTel', 'CloudTel.node.js'));
	const { properties } = new CloudTel().description;
	const resources = properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	const out = [];
	for (const resource of resources) {
		const operation = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		for (const option of operation?.options ?? []) out.push(`${resource}.${option.value}`);
	}
	return out;
}
