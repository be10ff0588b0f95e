// `npm test`: build, lint, the vitest suite and the e2e suite in real n8n, one after the
// other, stopping at the first that fails; ends with each stage's time, so that a slow
// stage is seen where it grows (the suite's budget is 15 minutes on a 2-core machine).
// CLOUDTEL_INSTALL_SECONDS, when .ci/run sets it, adds the install's time to the table.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stages = [
	['build', ['run', 'build']],
	['lint', ['run', 'lint']],
	['vitest', ['run', 'test:unit']],
	['e2e', ['run', 'test:e2e']],
];

const times = [];
if (process.env.CLOUDTEL_INSTALL_SECONDS) times.push(['install', Number(process.env.CLOUDTEL_INSTALL_SECONDS)]);
let failed;
for (const [name, args] of stages) {
	const started = performance.now();
	const { status, signal } = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
	times.push([name, (performance.now() - started) / 1000]);
	if (status !== 0) {
		failed = `${name} failed (${status ?? signal})`;
		break;
	}
}

const total = times.reduce((sum, [, s]) => sum + s, 0);
console.log('\nStage times:');
for (const [name, s] of [...times, ['total', total]]) console.log(`  ${name.padEnd(8)} ${formatSeconds(s)}`);
if (failed) console.log(`\n${failed}`);
process.exit(failed ? 1 : 0);

function formatSeconds(s) {
	const m = Math.floor(s / 60);
	return `${m ? `${m} min ` : ''}${Math.round(s - m * 60)} s`;
}
