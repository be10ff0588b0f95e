// Issue 6 (1): the worker's messages/s against the raw ceiling: autocannon posting the same
// campaign's messages, as ready 1000-message batches, to the same sandbox process the
// worker sends to. Target: worker >= 0.8x the ceiling.
//
// One sandbox process serves all three phases, in this order: ceiling, worker, ceiling
// again. Each ceiling posts the campaign's batches once (the same To, Text and ExternalId
// the worker sends), so every phase leaves the sandbox with the same load; the ratio uses
// the higher of the two ceilings.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startSandboxProcess } from './lib/sandboxProcess.mjs';
import { benchFile, e164Csv, runCli } from './lib/workerCli.mjs';

const ROWS = Number(process.env.BENCH_WORKER_ROWS ?? 200_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const BATCH = 1000;
const TEXT = 'Hello {{Name}}, this is message for {{Phone}}';

/** The request bodies the worker will send for this CSV, built ahead of time. */
function readyBatches(csv) {
	const lines = readFileSync(csv, 'utf8').split('\n').slice(1).filter(Boolean);
	const bodies = [];
	for (let i = 0; i < lines.length; i += BATCH) {
		const Messages = lines.slice(i, i + BATCH).map((l, j) => {
			const [Phone, Name] = l.split(',');
			return { To: Phone, Text: TEXT.replace('{{Name}}', Name).replace('{{Phone}}', Phone), ExternalId: `bench:${i + j + 2}` };
		});
		bodies.push(JSON.stringify({ Messages }));
	}
	return bodies;
}

async function ceiling(sandbox, bodies) {
	let next = 0;
	const r = await autocannon({
		url: `${sandbox.url}/v2/Properties/${sandbox.PropertySid}/BatchMessages`,
		method: 'POST',
		headers: { authorization: sandbox.auth, 'content-type': 'application/json' },
		connections: CONNECTIONS,
		amount: bodies.length,
		requests: [{ setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }],
	});
	return { messagesPerSecond: (r['2xx'] * BATCH) / r.duration, seconds: r.duration, non2xx: r.non2xx };
}

async function worker(sandbox, csv) {
	const db = benchFile(`throughput-${Date.now()}.db`);
	const run = await runCli(
		['campaign', 'run', '--csv', csv, '--text', TEXT, '--property', sandbox.PropertySid, '--db', db, '--name', 'bench', '--rate', '0', '--batch-size', String(BATCH), '--concurrency', String(CONNECTIONS)],
		{ CLOUDTEL_BASE_URL: sandbox.url, CLOUDTEL_ACCOUNT_SID: sandbox.AccountSid, CLOUDTEL_AUTH_TOKEN: sandbox.AuthToken },
	);
	if (run.code !== 0) throw new Error(`worker exited ${run.code}: ${run.stderr}`);
	return run;
}

const csv = e164Csv(`throughput-${ROWS}.csv`, ROWS);
const bodies = readyBatches(csv);
const sandbox = await startSandboxProcess();
let before, run, after;
try {
	before = await ceiling(sandbox, bodies);
	run = await worker(sandbox, csv);
	after = await ceiling(sandbox, bodies);
} finally {
	await sandbox.stop();
}
const raw = Math.max(before.messagesPerSecond, after.messagesPerSecond);
const s = run.summary;
const endToEnd = s.rows.accepted / run.seconds;
const fmt = (n) => Math.round(n).toString().padStart(8);
console.log(`worker throughput, ${ROWS} rows, batches of ${BATCH}, ${CONNECTIONS} in flight, one sandbox process for every phase`);
console.log(`  raw ceiling before the worker (autocannon, the campaign's ${bodies.length} batches)  ${fmt(before.messagesPerSecond)} messages/s  (${before.seconds.toFixed(1)} s, non-2xx ${before.non2xx})`);
console.log(`  raw ceiling after the worker                                          ${fmt(after.messagesPerSecond)} messages/s  (${after.seconds.toFixed(1)} s, non-2xx ${after.non2xx})`);
console.log(`  worker, send stage (first chunk taken to last answer stored)          ${fmt(s.sendRate)} messages/s  ratio ${(s.sendRate / raw).toFixed(2)}x of the higher ceiling (target >= 0.8x)`);
console.log(`  worker, whole CLI process (start, CSV read and import, send, exit)    ${fmt(endToEnd)} messages/s  ratio ${(endToEnd / raw).toFixed(2)}x  (${run.seconds.toFixed(1)} s, peak RSS ${run.peakMb.toFixed(0)} MB)`);
