// `npm test`: build and lint side by side, n8n's installs when not cached, then the vitest
// suite and the e2e suite in real n8n side by side (each waits mostly on the processes it
// starts, so together they fit two cores), and last each stage's time, so that a slow stage
// is seen where it grows (the suite's budget is 15 minutes on a 2-core machine). Beside them
// the 90-second soak (issue 33: two workers, a run, replies mailed and receipts under seeded
// faults; about 2.5 min and 30 s of CPU). The e2e and soak output is kept in files and
// printed once vitest has finished, so they do not interleave. CLOUDTEL_INSTALL_SECONDS, when
// .ci/run sets it, adds the install's time to the table; CLOUDTEL_TEST_SERIAL=1 runs e2e and
// the soak after vitest.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const times = [];
if (process.env.CLOUDTEL_INSTALL_SECONDS)
	times.push(['install', Number(process.env.CLOUDTEL_INSTALL_SECONDS)]);
const started = performance.now();

/**
 * Runs `npm run <script>`, timed (unless `timed` is false); output to ours, or to `logFile`.
 * Resolves with its exit code.
 */
function stage(name, script, logFile, env = {}, timed = true) {
	const begun = performance.now();
	const child = spawn('npm', ['run', script], {
		cwd: root,
		env: { ...process.env, ...env },
		stdio: logFile ? ['ignore', 'pipe', 'pipe'] : 'inherit',
	});
	if (logFile) {
		const out = createWriteStream(logFile);
		child.stdout.pipe(out);
		child.stderr.pipe(out);
	}
	return new Promise((resolve) => {
		child.once('close', (code, signal) => {
			if (timed) times.push([name, (performance.now() - begun) / 1000]);
			resolve(code ?? (signal ? 1 : 0));
		});
	});
}

const failed = [];
// The build and the source's lint each keep one core busy, so they run side by side; the
// tarball's scan (lint:scan) packs the build, so it follows it, timed within the lint.
{
	const lintBegun = performance.now();
	const [built, linted] = await Promise.all([
		stage('build', 'build'),
		stage('lint', 'lint:source', undefined, {}, false),
	]);
	if (built !== 0) failed.push('build');
	else if (linted !== 0 || (await stage('lint', 'lint:scan', undefined, {}, false)) !== 0)
		failed.push('lint');
	times.push(['lint', (performance.now() - lintBegun) / 1000]);
}
// n8n's installs, when not cached, before vitest rather than under it (test/e2e/prepare.mjs).
if (failed.length === 0 && (await stage('n8n', 'test:e2e:prepare')) !== 0) failed.push('n8n');
if (failed.length === 0) {
	if (process.env.CLOUDTEL_TEST_SERIAL === '1') {
		for (const [name, script] of [
			['vitest', 'test:unit'],
			['e2e', 'test:e2e'],
			['soak', 'test:soak'],
		])
			if ((await stage(name, script)) !== 0) failed.push(name);
	} else {
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-e2e-log-'));
		const e2eLog = join(dir, 'e2e.log');
		const soakLog = join(dir, 'soak.log');
		// Slices 7 and 6 of the test ports: vitest's pools take 1 to 3 (test/support/freePort.mjs).
		const e2e = stage('e2e', 'test:e2e', e2eLog, { CLOUDTEL_PORT_SLICE: '7' });
		const soak = stage('soak', 'test:soak', soakLog, { CLOUDTEL_PORT_SLICE: '6' });
		const vitest = await stage('vitest', 'test:unit');
		const e2eCode = await e2e;
		console.log('\n---- e2e (npm run test:e2e), run beside vitest ----');
		process.stdout.write(readFileSync(e2eLog));
		const soakCode = await soak;
		console.log('\n---- soak (npm run test:soak), run beside vitest ----');
		process.stdout.write(readFileSync(soakLog));
		rmSync(dir, { recursive: true, force: true });
		if (vitest !== 0) failed.push('vitest');
		if (e2eCode !== 0) failed.push('e2e');
		if (soakCode !== 0) failed.push('soak');
	}
}

console.log('\nStage times:');
// build and lint overlap, and so do vitest, e2e and the soak: the total is the install and
// this script's own wall time.
const total =
	Number(process.env.CLOUDTEL_INSTALL_SECONDS ?? 0) + (performance.now() - started) / 1000;
for (const [name, s] of [...times, ['total', total]])
	console.log(`  ${name.padEnd(8)} ${formatSeconds(s)}`);
if (failed.length) console.log(`\nfailed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);

function formatSeconds(seconds) {
	// Rounded first: 659.6 s is 11 min 0 s, not 10 min 60 s.
	const s = Math.round(seconds);
	const m = Math.floor(s / 60);
	return `${m ? `${m} min ` : ''}${s - m * 60} s`;
}
