// Issue 14: `cloudtel campaign report` on a 1,000,000-row campaign. The ledger is built
// directly (the worker's own schema, rows written with SQL: sending a million messages is
// not what is measured), then the built CLI writes the JSON and the HTML report, as a user
// would run it; its time and peak RSS (VmHWM) are printed. The report reads counts and
// buckets with SQL, so its memory should not grow with the rows.
import { existsSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './lib/sandboxProcess.mjs';
import { benchFile, runCli } from './lib/workerCli.mjs';

const require = createRequire(join(root, 'worker', 'package.json'));
const Database = require('better-sqlite3');
const { SqliteLedger } = require(
	join(root, 'worker/dist/worker/src/storage/sqlite/sqliteLedger.js'),
);

const ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 1_000_000);
const CHUNK = 1000;
const NAME = 'million';

async function build(path) {
	for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
	const ledger = new SqliteLedger(path);
	await ledger.createCampaign({
		name: NAME,
		csvPath: '/bench/million.csv',
		propertySid: 'PR-bench',
		text: 'Hi {{Name}}',
	});
	await ledger.close();
	const db = new Database(path);
	db.pragma('journal_mode = WAL');
	db.pragma('synchronous = OFF');
	const row = db.prepare(
		`INSERT INTO recipients (campaign, line, to_number, text, segments, status, error_code, message) VALUES (?, ?, ?, 'Hi', ?, ?, ?, ?)`,
	);
	const answer = db.prepare(
		`INSERT INTO answers (campaign, first, last, sids, at) VALUES (?, ?, ?, ?, ?)`,
	);
	// sent_at as recordDelivery copies it from the answer.
	const delivery = db.prepare(
		`INSERT INTO deliveries (campaign, line, message_sid, status, error_code, at, received_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
	);
	const reply = db.prepare(
		`INSERT INTO replies (campaign, line, message_sid, at, opt_out) VALUES (?, ?, ?, ?, ?)`,
	);
	// A two-hour campaign: a chunk every 7.2 s, receipts 1 to 60 s after.
	const start = Date.UTC(2026, 10, 23, 9);
	const countries = ['+614', '+614', '+614', '+614', '+1415', '+4477', '+6421', '+3361'];
	let seed = 11;
	const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
	db.transaction(() => {
		for (let first = 2; first < ROWS + 2; first += CHUNK) {
			const sids = [];
			const sentAt = start + Math.floor(((first - 2) / ROWS) * 7_200_000);
			for (let line = first; line < Math.min(first + CHUNK, ROWS + 2); line++) {
				const to = `${countries[line % countries.length]}${String(10_000_000 + line).slice(-8)}`;
				if (line % 100 === 7) {
					row.run(NAME, line, null, 0, 'invalid', 'INVALID_NUMBER', 'bad number');
					continue;
				}
				row.run(NAME, line, to, line % 10 === 0 ? 2 : 1, 'accepted', null, null);
				const sid = `SM${line.toString(16).padStart(30, '0')}`;
				sids.push([line, sid]);
				const r = rnd();
				if (r < 0.02) continue; // no receipt yet
				const receivedAt = sentAt + 1000 + Math.floor(rnd() * 59_000);
				const failed = r > 0.96;
				delivery.run(
					NAME,
					line,
					sid,
					failed ? 'Failed' : 'Delivered',
					failed ? (r > 0.985 ? 'UNKNOWN_SUBSCRIBER' : 'UNDELIVERABLE') : null,
					Math.floor(receivedAt / 1000),
					receivedAt,
					sentAt,
				);
				if (r < 0.03) reply.run(NAME, line, `IN${line}`, receivedAt + 30_000, r < 0.025 ? 1 : 0);
			}
			answer.run(NAME, first, Math.min(first + CHUNK, ROWS + 2) - 1, JSON.stringify(sids), sentAt);
		}
	})();
	db.pragma('wal_checkpoint(TRUNCATE)');
	db.close();
}

const db = benchFile('report-ledger.db');
const html = benchFile('report.html');
const t0 = performance.now();
await build(db);
console.log(
	`ledger: ${ROWS.toLocaleString('en-US')} rows built in ${((performance.now() - t0) / 1000).toFixed(1)} s (${(statSync(db).size / 1e6).toFixed(0)} MB)`,
);

const json = await runCli(['campaign', 'report', '--db', db, '--name', NAME, '--json']);
if (json.code !== 0) throw new Error(`report --json exited ${json.code}: ${json.stderr}`);
const report = JSON.parse(json.stdout ?? '{}');
const withHtml = await runCli([
	'campaign',
	'report',
	'--db',
	db,
	'--name',
	NAME,
	'--json',
	'--html',
	html,
	'--price-per-segment',
	'0.045',
]);
if (withHtml.code !== 0 || !existsSync(html))
	throw new Error(`report --html exited ${withHtml.code}: ${withHtml.stderr}`);
const baseline = await runCli(['--help']);

console.log(
	`report --json:        ${json.seconds.toFixed(2)} s, peak RSS ${json.peakMb.toFixed(0)} MB`,
);
console.log(
	`report --json --html: ${withHtml.seconds.toFixed(2)} s, peak RSS ${withHtml.peakMb.toFixed(0)} MB (HTML ${(statSync(html).size / 1024).toFixed(0)} KB)`,
);
console.log(
	`cloudtel --help (the process alone): ${baseline.seconds.toFixed(2)} s, peak RSS ${baseline.peakMb.toFixed(0)} MB`,
);
console.log(
	`funnel: ${JSON.stringify(report.funnel)}; receipt p50 ${report.receiptSeconds?.p50} s, p95 ${report.receiptSeconds?.p95} s; ${report.timeline?.sends.length} send buckets of ${report.timeline?.bucketSeconds} s`,
);
console.log('(figures from one run on a machine shared with other work: indicative)');
