// Keeps better-sqlite3's compiled binding as a prebuild in ~/.cache/cloudtel/prebuilds
// (CLOUDTEL_CACHE_DIR), under the name prebuild-install itself looks for (version, Node's
// ABI, platform). .ci/run points prebuild-install there before `npm install` (`--dir` prints
// the folder), so a clean clone unpacks the binding instead of compiling SQLite again: a
// minute of one core, a third of the install. A machine without it, or another Node,
// compiles as before; this then keeps the result.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { cacheRoot } from '../test/e2e/lib/install.mjs';

const dir = join(cacheRoot(), 'prebuilds');
if (process.argv[2] === '--dir') {
	console.log(dir);
	process.exit(0);
}
const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('better-sqlite3/package.json'));
const pkg = require('better-sqlite3/package.json');
// prebuild-install's own naming, from the copy better-sqlite3 installs with.
const { getDownloadUrl } = createRequire(join(pkgDir, 'package.json'))('prebuild-install/util');
const file = join(
	dir,
	basename(getDownloadUrl({ pkg, platform: process.platform, arch: process.arch })),
);
const binding = 'build/Release/better_sqlite3.node';
if (existsSync(file)) process.exit(0);
if (!existsSync(join(pkgDir, binding))) {
	console.error(`keep-prebuild: no ${binding} in ${pkgDir}; nothing kept`);
	process.exit(0);
}
// Only a binding that loads is kept.
require('better-sqlite3')(':memory:').close();
mkdirSync(dir, { recursive: true });
const partial = `${file}.${process.pid}.partial`;
execFileSync('tar', ['-czf', partial, '-C', pkgDir, binding]);
renameSync(partial, file);
console.log(`keep-prebuild: better-sqlite3's binding kept in ${file}`);
