// `npm run demo`: the demo of worker/README.md, built first only when worker/dist is missing
// or older than a source of it (the rule of test/support/freshBuild.ts: the stamp build.mjs
// leaves must postdate every source), so a built checkout starts at once.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = [
	'api',
	'worker/src',
	'sandbox/src',
	'examples',
	'scripts/build.mjs',
	'tsconfig.base.json',
	'worker/tsconfig.json',
	'sandbox/tsconfig.json',
];

function newestIn(path) {
	const stat = statSync(path, { throwIfNoEntry: false });
	if (!stat) return 0;
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(path)) newest = Math.max(newest, newestIn(join(path, entry)));
	return newest;
}

function builtFresh() {
	try {
		const stamp = JSON.parse(readFileSync(join(ROOT, 'worker/dist/.build-stamp.json'), 'utf8'));
		return (
			stamp.failed === undefined &&
			stamp.startedAt > Math.max(...SOURCES.map((s) => newestIn(join(ROOT, s))))
		);
	} catch {
		return false;
	}
}

const run = (args) =>
	spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
if (!builtFresh()) {
	console.error(
		'worker/dist is missing or older than its sources: building it first (npm run build)',
	);
	const built = run([join(ROOT, 'scripts/build.mjs')]);
	if (built !== 0) process.exit(built);
}
process.exit(run([join(ROOT, 'worker/bin/cloudtel.js'), 'demo', ...process.argv.slice(2)]));
