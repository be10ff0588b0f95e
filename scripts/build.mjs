// Builds the n8n package (api, credentials, nodes) into dist/, then the worker and the
// sandbox into their own dist/ folders, each with its own compiled copy of api/. The
// worker's package carries what `cloudtel sandbox` and `cloudtel demo` need, so it can be
// installed alone: the sandbox's compiled files and the examples go into worker/dist.
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// A source saved after this moment may be missing from the build: the stamp tells the
// CLI-running tests (test/support/freshBuild.ts) whether worker/dist is older than its sources.
const startedAt = Date.now();

// The package ships dist/ whole: a file left from a renamed or deleted source would be
// published and loaded by n8n, so it starts empty.
rmSync(join(root, 'dist'), { recursive: true, force: true });

for (const project of ['tsconfig.json', 'sandbox/tsconfig.json', 'worker/tsconfig.json']) {
	execFileSync(process.execPath, [tsc, '-p', join(root, project)], { stdio: 'inherit' });
}

// tsc copies no assets: n8n needs each node's icon and codex file beside its .js.
function copyAssets(dir) {
	if (!existsSync(dir)) return;
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) copyAssets(path);
		else if (/\.(svg|png|json)$/.test(name)) cpSync(path, join(root, 'dist', relative(root, path)));
	}
}
copyAssets(join(root, 'nodes'));
copyAssets(join(root, 'credentials'));

// Compiled from the same api/ sources with the same settings, the sandbox's files find
// worker/dist/api where they found sandbox/dist/api.
const workerDist = join(root, 'worker', 'dist');
rmSync(join(workerDist, 'sandbox'), { recursive: true, force: true });
cpSync(join(root, 'sandbox', 'dist', 'sandbox'), join(workerDist, 'sandbox'), { recursive: true });
// Every config and CSV of examples/ (the n8n workflows are not the worker's): one added
// there ships without a list here to forget. Emptied first, so a removed one does not linger.
rmSync(join(workerDist, 'examples'), { recursive: true, force: true });
mkdirSync(join(workerDist, 'examples'), { recursive: true });
for (const name of readdirSync(join(root, 'examples')).filter((f) => /\.(ya?ml|csv)$/.test(f)))
	cpSync(join(root, 'examples', name), join(workerDist, 'examples', name));
writeFileSync(join(workerDist, '.build-stamp.json'), JSON.stringify({ startedAt }));
