// `npm run bench`: runs every bench/*.bench.mjs in turn (or those named on the command
// line), each in its own process, printing their figures. Benchmarks are not tests:
// they print measurements and ratios from one run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
	.filter((f) => f.endsWith('.bench.mjs'))
	.filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
	.sort();

let failed = 0;
for (const file of files) {
	console.log(`\n=== ${file}`);
	const run = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' });
	if (run.status !== 0) {
		failed++;
		console.log(`=== ${file} exited ${run.status ?? run.signal}`);
	}
}
process.exitCode = failed > 0 ? 1 : 0;
