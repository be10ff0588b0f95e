// The package as n8n users install it: the packed tarball, installed by npm the way this n8n
// line's Community Nodes panel installs it (see lib/package.mjs), and by hand with
// `npm install` in an empty folder. Either way it must install exactly one package: it has no
// runtime dependencies, and its peer n8n-workflow is optional (a required peer makes npm
// install n8n-workflow 2.x and its isolated-vm, which fails to build on Node 20 and 22).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
	cleanNpmEnv,
	installedPackages,
	packageJson,
	packageName,
	packTarball,
	panelOf,
} from '../lib/package.mjs';

export const title = 'Install: the packed tarball through npm, as the panel and the README do';

export async function run(ctx, test) {
	const nodesDir = join(ctx.n8n.userFolder, '.n8n', 'nodes');

	await test("the panel's npm install put exactly one package in ~/.n8n/nodes, with every file n8n loads", async () => {
		assert.deepEqual(installedPackages(nodesDir), [packageName]);
		const installed = join(nodesDir, 'node_modules', packageName);
		for (const file of [...packageJson.n8n.nodes, ...packageJson.n8n.credentials])
			assert.ok(existsSync(join(installed, file)), `${file} installed`);
		assert.equal(
			JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8')).dependencies[packageName] !==
				undefined,
			true,
			'listed in nodes/package.json',
		);
	});

	await test(
		'`npm install <tarball>` in an empty folder, on the Node that runs this n8n, installs one package',
		async () => {
			const dir = mkdtempSync(join(ctx.root, 'fresh-'));
			try {
				const { pathDir } = panelOf(ctx.install);
				execFileSync('npm', ['install', packTarball()], {
					cwd: dir,
					env: cleanNpmEnv({ PATH: `${pathDir}:${process.env.PATH}` }),
					stdio: 'pipe',
					timeout: 300_000,
				});
				assert.deepEqual(installedPackages(dir), [packageName]);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		},
		{ timeoutMs: 320_000 },
	);
}
