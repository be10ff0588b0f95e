// Keeps better-sqlite3's compiled binding as a prebuild in ~/.cache/cloudtel/prebuilds
// (CLOUDTEL_CACHE_DIR), named as prebuild-install names them (version, Node's ABI, platform).
// .ci/run points prebuild-install there before `npm install`, so a clean clone unpacks the
// binding instead of compiling SQLite again: a minute of one core, a third of the install.
// A machine without it, or another Node, compiles as before; this then keeps the result.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cacheRoot } from '../test/e2e/lib/install.mjs';

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('better-sqlite3/package.json'));
const { version } = require('better-sqlite3/package.json');
const binding = 'build/Release/better_sqlite3.node';
const dir = join(cacheRoot(), 'prebuilds');
const file = join(
	dir,
	`better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
);
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
