// Issue 41: the tracked-link redirect on loopback. A campaign of BENCH_RECIPIENTS (1,000)
// with --track-links is sent to the sandbox on a SQLite ledger; a worker serves its links.
// Then: BENCH_PACED_SECONDS (5) of requests paced at 1,000 a second (latency), and
// BENCH_OPEN_SECONDS (5) of requests as fast as BENCH_CONNECTIONS (32, under the worker's
// 64 per client) keep-alive connections take them (throughput). Every request must be
// answered 302 and recorded as a click. Target: p99 <= 10 ms at 1,000 a second, >= 5,000
// redirects a second.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { root, startSandboxProcess } from './lib/sandboxProcess.mjs';
import { runCli } from './lib/workerCli.mjs';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 1000);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 5);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TARGET = { perSecond: 5000, p99Ms: 10, pacedRate: 1000 };

async function freePort() {
	const server = createServer();
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address();
	await new Promise((r) => server.close(r));
	return port;
}

const percentile = (sorted, p) =>
	sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const dir = mkdtempSync(join(tmpdir(), 'cloudtel-bench-links-'));
const db = join(dir, 'links.db');
const sandbox = await startSandboxProcess(['--receipt-delay-ms', '600000']);
const port = await freePort();
const base = `http://127.0.0.1:${port}/l`;
let worker;
try {
	const csv = join(dir, 'list.csv');
	let text = 'Phone\n';
	for (let i = 0; i < RECIPIENTS; i++) text += `+614${String(10_000_000 + i).slice(-8)}\n`;
	writeFileSync(csv, text);
	const env = {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.AuthToken,
	};
	const sent = await runCli(
		[
			'campaign',
			'run',
			'--csv',
			csv,
			'--property',
			sandbox.PropertySid,
			'--db',
			db,
			'--name',
			'bench',
			'--text',
			'Sale today: https://shop.example.com/sale',
			'--rate',
			'0',
			'--track-links',
			'--link-base',
			base,
		],
		env,
	);
	if (sent.code !== 0) throw new Error(`the campaign failed: ${sent.stderr}`);
	const config = join(dir, 'worker.config.json');
	writeFileSync(
		config,
		JSON.stringify({
			provider: { baseUrl: sandbox.url },
			db,
			server: {
				publicUrl: `http://127.0.0.1:${port}`,
				port,
				host: '127.0.0.1',
				secret: 'bench-links-secret-0123456789',
			},
			links: { baseUrl: base, scanWindowSeconds: 0 },
		}),
	);
	worker = spawn(
		process.execPath,
		[join(root, 'worker/bin/cloudtel.js'), 'worker', '--config', config],
		{
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let out = '';
	worker.stdout.on('data', (d) => (out += d));
	while (!out.includes('worker started')) await once(worker.stdout, 'data');
	const reader = new Database(db, { readonly: true });
	const tokens = reader.prepare('SELECT token FROM links').pluck().all();
	const clicks = () => reader.prepare('SELECT COUNT(*) FROM link_clicks').pluck().get();
	const agent = new Agent({ connections: CONNECTIONS, pipelining: 1 });
	let asked = 0;
	let wrong = 0;
	const one = async () => {
		const token = tokens[asked++ % tokens.length];
		const t = performance.now();
		const r = await request(`${base}/${token}`, { dispatcher: agent });
		await r.body.dump();
		if (r.statusCode !== 302) wrong++;
		return performance.now() - t;
	};
	// Warm-up: the JIT and the connections.
	for (let i = 0; i < 2000; i += 50) await Promise.all(Array.from({ length: 50 }, one));

	// Paced: one request every millisecond, each timed from when it was due to leave.
	const latencies = [];
	const pacedStart = performance.now();
	const total = TARGET.pacedRate * PACED_SECONDS;
	const inflight = [];
	for (let i = 0; i < total; i++) {
		const due = pacedStart + (i * 1000) / TARGET.pacedRate;
		const wait = due - performance.now();
		if (wait > 1) await new Promise((r) => setTimeout(r, wait));
		inflight.push(one().then((ms) => latencies.push(ms)));
	}
	await Promise.all(inflight);
	const pacedSeconds = (performance.now() - pacedStart) / 1000;
	latencies.sort((a, b) => a - b);

	// Open: as fast as the connections go.
	let done = 0;
	const openStart = performance.now();
	const until = openStart + OPEN_SECONDS * 1000;
	await Promise.all(
		Array.from({ length: CONNECTIONS }, async () => {
			while (performance.now() < until) {
				await one();
				done++;
			}
		}),
	);
	const perSecond = done / ((performance.now() - openStart) / 1000);

	// Every request recorded: the worker stores a click before it answers; processing follows.
	const recordedBy = performance.now() + 60_000;
	while (clicks() < asked && performance.now() < recordedBy)
		await new Promise((r) => setTimeout(r, 200));
	const recorded = clicks();
	reader.close();
	await agent.close();

	const f = (v) => `${v.toFixed(2)} ms`;
	console.log(`links: ${RECIPIENTS} recipients, ${tokens.length} tokens, SQLite ledger`);
	console.log(
		`  paced ${TARGET.pacedRate}/s for ${pacedSeconds.toFixed(1)} s: p50 ${f(percentile(latencies, 50))}  p99 ${f(percentile(latencies, 99))}  max ${f(latencies[latencies.length - 1])}  (target p99 <= ${TARGET.p99Ms} ms: ${percentile(latencies, 99) <= TARGET.p99Ms ? 'met' : 'NOT met'})`,
	);
	console.log(
		`  open, ${CONNECTIONS} connections: ${Math.round(perSecond)} redirects/s  (target >= ${TARGET.perSecond}: ${perSecond >= TARGET.perSecond ? 'met' : 'NOT met'})`,
	);
	console.log(
		`  requests ${asked}, not 302: ${wrong}, clicks recorded ${recorded} (${recorded === asked ? 'all' : `MISSING ${asked - recorded}`})`,
	);
	if (wrong > 0 || recorded !== asked) process.exitCode = 1;
} finally {
	worker?.kill('SIGTERM');
	if (worker) await once(worker, 'exit');
	await sandbox.stop();
}
