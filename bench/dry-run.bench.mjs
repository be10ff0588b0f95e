// Issue 6 (2): a 1,000,000-row --dry-run against the naive pipeline (csv-parse and a
// libphonenumber-js/max parse of every row, one core), measured in the same run.
// Targets: worker time <= 0.5x naive, peak RSS <= 200 MB.
import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { alternate } from './lib/alternate.mjs';
import { root } from './lib/sandboxProcess.mjs';
import { benchFile, runCli } from './lib/workerCli.mjs';

const require = createRequire(join(root, 'worker', 'package.json'));
// csv-parse is the naive side's only: the worker reads CSV with a parser of its own.
const { parse } = createRequire(join(root, 'package.json'))('csv-parse');
const { parsePhoneNumberFromString } = require('libphonenumber-js/max');

const ROWS = Number(process.env.BENCH_DRY_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const STORES = ['Bondi', 'Parramatta', 'Fitzroy, Level 2', 'Newtown', 'Southbank'];

/** A list as marketers have them: mostly E.164, a quarter national, some duplicates and junk. */
function generate(path) {
	let seed = 7;
	const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
	const chunks = ['Phone,FirstName,Store\n'];
	let text = '';
	for (let i = 0; i < ROWS; i++) {
		const national = `04${String(10_000_000 + ((i * 7919) % 90_000_000)).slice(-8)}`;
		const r = rnd();
		const phone =
			r < 0.68
				? `+61${national.slice(1)}`
				: r < 0.93
					? `${national.slice(0, 4)} ${national.slice(4, 7)} ${national.slice(7)}`
					: r < 0.98
						? `+61${String(10_000_000 + Math.floor(rnd() * 1e6)).slice(-8)}4`
						: 'n/a';
		const store = STORES[i % STORES.length];
		text += `${phone},Name${i},${store.includes(',') ? `"${store}"` : store}\n`;
		if (text.length > 1 << 20) {
			chunks.push(text);
			text = '';
		}
	}
	chunks.push(text);
	writeFileSync(path, chunks.join(''));
}

async function naive(path) {
	const started = performance.now();
	let valid = 0;
	const parser = createReadStream(path).pipe(parse({ bom: true, from_line: 2 }));
	for await (const record of parser) {
		const n = parsePhoneNumberFromString(record[0], 'AU');
		if (n && n.isValid() && n.number) valid++;
	}
	return { seconds: (performance.now() - started) / 1000, valid };
}

async function worker(csv) {
	const run = await runCli([
		'campaign',
		'run',
		'--csv',
		csv,
		'--text',
		'Hi {{FirstName}}, your {{Store}} order is ready.',
		'--default-country',
		'AU',
		'--dry-run',
		'--db',
		benchFile('dry-run-none.db'),
	]);
	if (run.code !== 0) throw new Error(`worker exited ${run.code}: ${run.stderr}`);
	return run;
}

const csv = benchFile(`dry-run-${ROWS}.csv`);
if (!existsSync(csv)) generate(csv);
// Means of alternating rounds: see alternate().
const { baselines: naives, contenders: runs } = await alternate(
	ROUNDS,
	() => naive(csv),
	() => worker(csv),
);
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const base = mean(naives.map((n) => n.seconds));
const ours = mean(runs.map((r) => r.seconds));
const s = runs[0].summary;
const list = (values) => values.map((v) => `${v.toFixed(2)} s`).join(', ');
console.log(`dry run of ${ROWS} rows on ${availableParallelism()} cores, ${ROUNDS} rounds`);
console.log(
	`  naive (csv-parse + libphonenumber-js/max, one core)  ${list(naives.map((n) => n.seconds))}  mean ${base.toFixed(2)} s  (${naives[0].valid} valid numbers)`,
);
console.log(
	`  cloudtel --dry-run                                  ${list(runs.map((r) => r.seconds))}  mean ${ours.toFixed(2)} s  (valid ${s.rows.pending}, invalid ${s.rows.invalid}, duplicate ${s.rows.duplicate}, ${s.segments} segments)`,
);
console.log(`  ratio worker / naive: ${(ours / base).toFixed(2)}x (target <= 0.5x)`);
console.log(
	`  peak RSS ${runs.map((r) => `${r.peakMb.toFixed(0)} MB`).join(', ')}; the highest ${Math.max(...runs.map((r) => r.peakMb)).toFixed(0)} MB (target <= 200 MB)`,
);
