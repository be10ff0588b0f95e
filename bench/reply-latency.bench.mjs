// Issues 7 and 11: reply-to-e-mail latency on loopback. A reply enters the sandbox (POST
// /_sandbox/replies), the sandbox calls the worker's reply webhook, the worker stores it,
// matches a rule and forwards it by SMTP; the clock stops when the SMTP server has the
// mail. Measured one reply at a time (latency), then as a burst (latency under load).
// Sandbox and worker are processes of their own; the SMTP server lives here.
// Target (issue 11): a burst of 1,000 replies forwarded at >= 1,000 a second, p99 <= 1 s.
// BENCH_REPLIES, BENCH_BURST: how many; BENCH_CONCURRENCY: the outbox's forwards
// at once (default 32); BENCH_DB=postgres: the worker on Postgres; BENCH_LOG=FILE keeps the worker's log, BENCH_PROF=DIR its CPU profile.
// Issue 18: then a burst of BENCH_OUTAGE_BURST (1,000) replies while the worker's Postgres
// is down for BENCH_OUTAGE_SECONDS (20; 0 skips it): lost (must be 0), forwards a second
// once it is back, p99 from the reply's arrival to its e-mail.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { cpuMeter } from './lib/cpuTime.mjs';
import { root, startSandboxProcess } from './lib/sandboxProcess.mjs';
import { stoppablePostgres } from './lib/stoppablePostgres.mjs';

const SEQUENTIAL = Number(process.env.BENCH_REPLIES ?? 100);
const BURST = Number(process.env.BENCH_BURST ?? 1000);
// The daemon's first burst after a start is also its JIT's warm-up; the target is judged on
// the last, as a daemon that has run a while meets its bursts, and the first is shown too.
const BURSTS = Math.max(1, Number(process.env.BENCH_BURSTS ?? 4));
const TARGET = { perSecond: 1000, p99Ms: 1000 };
const OUTAGE_BURST = Number(process.env.BENCH_OUTAGE_BURST ?? 1000);
const OUTAGE_SECONDS = Number(process.env.BENCH_OUTAGE_SECONDS ?? 20);
const CLI = join(root, 'worker/bin/cloudtel.js');

if (
	!existsSync(join(root, 'worker/dist/worker/src/cli.js')) ||
	!existsSync(join(root, 'sandbox/dist/sandbox/src/main.js'))
) {
	console.error('build first: npm run build (npm run bench does)');
	process.exit(1);
}

async function freePort() {
	const server = createServer();
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address();
	await new Promise((r) => server.close(r));
	return port;
}

function percentile(sorted, p) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function describe(latencies) {
	const s = [...latencies].sort((a, b) => a - b);
	const f = (v) => `${v.toFixed(1)} ms`;
	return `p50 ${f(percentile(s, 50))}  p99 ${f(percentile(s, 99))}  max ${f(s[s.length - 1])}`;
}

function p99(latencies) {
	return percentile(
		[...latencies].sort((a, b) => a - b),
		99,
	);
}

// The SMTP server: resolves the waiter of each reply when its mail has arrived.
const waiters = new Map();
const arrived = new Map();
const smtp = new SMTPServer({
	authOptional: true,
	disabledCommands: ['STARTTLS'],
	logger: false,
	closeTimeout: 100,
	onData(stream, _session, callback) {
		const chunks = [];
		stream.on('data', (c) => chunks.push(c));
		stream.on('end', () => {
			const at = performance.now();
			const sid = /MessageSid: ([0-9a-f-]{36})/.exec(
				Buffer.concat(chunks)
					.toString('utf8')
					.replace(/=\r?\n/g, ''),
			)?.[1];
			if (sid) {
				arrived.set(sid, at);
				waiters.get(sid)?.(at);
			}
			callback();
		});
	},
});
const smtpPort = await freePort();
await new Promise((r) => smtp.listen(smtpPort, '127.0.0.1', r));

const sandbox = await startSandboxProcess(['--receipt-delay-ms', '600000']);

// The provider and the mail server a worker meets have run for a long time; the sandbox and
// the SMTP server here have just started, and their own JIT warm-up fell in the worker's
// first burst (half its CPU). So both are warmed before the worker starts (BENCH_WARM=0 does
// not): the sandbox calls back bursts of replies to a sink here, the SMTP server takes mail.
const WARM = process.env.BENCH_WARM !== '0';
if (WARM) await warmSandboxAndSmtp();
const dir = mkdtempSync(join(tmpdir(), 'cloudtel-bench-'));
const port = await freePort();
const secret = 'bench-secret-0123456789';
const config = join(dir, 'worker.config.json');
// BENCH_DB=postgres: the bursts on a worker whose database is Postgres (fsync on), not a SQLite file.
const burstPostgres = process.env.BENCH_DB === 'postgres' ? await stoppablePostgres() : undefined;
writeFileSync(
	config,
	JSON.stringify({
		provider: {
			baseUrl: sandbox.url,
			accountSid: sandbox.AccountSid,
			authToken: sandbox.AuthToken,
		},
		db: burstPostgres?.url ?? join(dir, 'worker.db'),
		server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', secret },
		smtp: { host: '127.0.0.1', port: smtpPort, allowInsecure: true, from: 'worker@example.com' },
		outbox: { concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32) },
		replies: [
			{
				match: { keyword: 'YES' },
				actions: [{ type: 'forwardEmail', to: 'bookings@example.com' }],
			},
			{ actions: [{ type: 'forwardEmail', to: 'team@example.com' }] },
		],
	}),
);
const worker = spawn(
	process.execPath,
	[
		...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROF] : []),
		CLI,
		'worker',
		'--config',
		config,
	],
	{ stdio: ['ignore', 'pipe', 'inherit'] },
);
let log = '';
worker.stdout.on('data', (d) => (log += d));
while (!log.includes('"worker started"')) {
	if (worker.exitCode !== null) throw new Error(`the worker exited ${worker.exitCode}`);
	await new Promise((r) => setTimeout(r, 20));
}
// The process started holds the socket; the worker runs in a copy of it, whose CPU is the worker's.
const copyPid = Number(
	execFileSync('pgrep', ['-P', String(worker.pid)])
		.toString()
		.trim()
		.split('\n')[0],
);

async function post(path, body, auth) {
	const res = await fetch(sandbox.url + path, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...(auth ? { authorization: sandbox.auth } : {}),
		},
		body: JSON.stringify(body),
	});
	const json = await res.json();
	if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
	return json;
}

// Original messages from leased numbers, carrying the worker's reply URL, as a campaign's do.
const total = SEQUENTIAL + BURSTS * BURST;
const originals = [];
for (let i = 0; i < total; i += 1000) {
	const messages = [];
	for (let j = i; j < Math.min(total, i + 1000); j++) {
		messages.push({
			To: `+6149${String(1_000_000 + j).padStart(7, '0')}`,
			Text: 'Reply YES to book',
			ExternalId: `bench-20300101T000000Z:${j + 2}`,
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${secret}/replies`,
		});
	}
	const results = await post(
		`/v2/Properties/${sandbox.PropertySid}/BatchMessages`,
		{ Messages: messages },
		true,
	);
	for (const r of results) originals.push({ to: r.To, leased: r.From });
}

async function oneReply(i) {
	const started = performance.now();
	const { MessageSid } = await post('/_sandbox/replies', {
		From: originals[i].to,
		To: originals[i].leased,
		Text: i % 2 ? 'YES please' : 'maybe later',
	});
	const at = arrived.get(MessageSid) ?? (await new Promise((r) => waiters.set(MessageSid, r)));
	waiters.delete(MessageSid);
	return at - started;
}

// A burst arrives at the provider at once, as the replies to a campaign do: one request
// hands the sandbox all of them, and the clock of each runs from that moment. (Posted one
// by one, the load generator's own HTTP cost, on the same two cores, was most of what the
// bench measured.)
async function replyBurst(first, count) {
	const started = performance.now();
	const indexes = Array.from({ length: count }, (_, k) => first + k);
	const { MessageSids } = await post('/_sandbox/replies', {
		Replies: indexes.map((i) => ({
			From: originals[i].to,
			To: originals[i].leased,
			Text: i % 2 ? 'YES please' : 'maybe later',
		})),
	});
	return Promise.all(
		MessageSids.map(async (sid) => {
			const at = arrived.get(sid) ?? (await new Promise((r) => waiters.set(sid, r)));
			waiters.delete(sid);
			return at - started;
		}),
	);
}

try {
	for (let i = 0; i < 10; i++) await oneReply(i); // warm-up: connections, JIT
	const sequential = [];
	for (let i = 10; i < SEQUENTIAL; i++) sequential.push(await oneReply(i));
	console.log(
		'reply -> webhook -> rule -> SMTP received, on loopback (sandbox and worker in their own processes)',
	);
	console.log(`  one at a time (${sequential.length} replies):  ${describe(sequential)}`);
	let first;
	let last;
	for (let n = 1; n <= BURSTS; n++) {
		const meter = cpuMeter({
			worker: copyPid,
			supervisor: worker.pid,
			sandbox: sandbox.child.pid,
			'this process (load and SMTP server)': process.pid,
		});
		const burstStarted = performance.now();
		const burst = await replyBurst(SEQUENTIAL + (n - 1) * BURST, BURST);
		const perSecond = BURST / ((performance.now() - burstStarted) / 1000);
		const cpu = meter();
		const name = n === 1 ? 'first burst after start' : `burst ${n}`;
		console.log(
			`  ${name} (${BURST} at once): ${describe(burst)}  (${perSecond.toFixed(0)} replies/s end to end)`,
		);
		console.log(
			`    CPU per reply: ${Object.entries(cpu)
				.map(([who, ms]) => `${who} ${ms === undefined ? '?' : (ms / BURST).toFixed(2)} ms`)
				.join(', ')}`,
		);
		last = { burst, perSecond, n };
		first ??= last;
	}
	// Issue 36: judged on the first burst after the worker's start, and on the last.
	for (const judged of first === last ? [first] : [first, last]) {
		const met =
			BURST >= 1000 && judged.perSecond >= TARGET.perSecond && p99(judged.burst) <= TARGET.p99Ms;
		console.log(
			`  target (a burst of 1000 at >= ${TARGET.perSecond} replies/s, p99 <= ${TARGET.p99Ms} ms, ${judged.n === 1 ? 'first burst after start' : `burst ${judged.n}`}${WARM ? ', sandbox and SMTP server warmed' : ''}): ${met ? 'met' : 'NOT met'} (${judged.perSecond.toFixed(0)} replies/s, p99 ${p99(judged.burst).toFixed(0)} ms; ${os.loadavg()[0].toFixed(1)} load average on ${os.availableParallelism()} cores while it ran)`,
		);
	}
	console.log(`  e-mails received ${arrived.size} of ${total}`);
	if (arrived.size !== total) process.exitCode = 1;
	if (OUTAGE_SECONDS > 0) await outage();
} finally {
	if (process.env.BENCH_LOG) writeFileSync(process.env.BENCH_LOG, log);
	worker.kill('SIGTERM');
	await once(worker, 'exit');
	console.log(
		`  worker logged ${(log.match(/"msg":"forwarded"/g) ?? []).length} forwards, ${(log.match(/"level":"error"/g) ?? []).length} errors`,
	);
	await sandbox.stop();
	burstPostgres?.close();
	await new Promise((r) => smtp.close(r));
}

/**
 * A worker on Postgres; Postgres stopped (pg_ctl stop -m fast); a burst of replies while it
 * is down; started again after OUTAGE_SECONDS. Every reply must be forwarded, once.
 */
async function outage() {
	const pg = await stoppablePostgres();
	const port2 = await freePort();
	const config2 = join(dir, 'outage.config.json');
	writeFileSync(
		config2,
		JSON.stringify({
			provider: {
				baseUrl: sandbox.url,
				accountSid: sandbox.AccountSid,
				authToken: sandbox.AuthToken,
			},
			db: pg.url,
			server: { publicUrl: `http://127.0.0.1:${port2}`, port: port2, host: '127.0.0.1', secret },
			smtp: { host: '127.0.0.1', port: smtpPort, allowInsecure: true, from: 'worker@example.com' },
			outbox: { concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32) },
			spool: { dir: join(dir, 'outage-spool') },
			replies: [{ actions: [{ type: 'forwardEmail', to: 'team@example.com' }] }],
		}),
	);
	const worker2 = spawn(process.execPath, [CLI, 'worker', '--config', config2], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	let log2 = '';
	worker2.stdout.on('data', (d) => (log2 += d));
	try {
		while (!log2.includes('"worker started"')) {
			if (worker2.exitCode !== null)
				throw new Error(`the worker on Postgres exited ${worker2.exitCode}`);
			await new Promise((r) => setTimeout(r, 20));
		}
		const messages = Array.from({ length: OUTAGE_BURST }, (_, j) => ({
			To: `+6149${String(5_000_000 + j).padStart(7, '0')}`,
			Text: 'Reply',
			ExternalId: `outage-20300101T000000Z:${j + 2}`,
			WebhookUri: `http://127.0.0.1:${port2}/callbacks/${secret}/replies`,
		}));
		const sent = [];
		for (let i = 0; i < messages.length; i += 1000)
			sent.push(
				...(await post(
					`/v2/Properties/${sandbox.PropertySid}/BatchMessages`,
					{ Messages: messages.slice(i, i + 1000) },
					true,
				)),
			);
		pg.stop();
		const started = performance.now();
		const { MessageSids } = await post('/_sandbox/replies', {
			Replies: sent.map((m) => ({ From: m.To, To: m.From, Text: 'during the outage' })),
		});
		await new Promise((r) => setTimeout(r, OUTAGE_SECONDS * 1000 - (performance.now() - started)));
		pg.start();
		const back = performance.now();
		const deadline = back + 120_000;
		while (MessageSids.some((sid) => !arrived.has(sid)) && performance.now() < deadline)
			await new Promise((r) => setTimeout(r, 100));
		const times = MessageSids.filter((sid) => arrived.has(sid)).map((sid) => arrived.get(sid));
		const lost = MessageSids.length - times.length;
		const afterBack = times.filter((t) => t >= back);
		const lastAt = Math.max(...times);
		const perSecond = afterBack.length / Math.max(0.001, (lastAt - back) / 1000);
		const firstAfter = afterBack.length > 0 ? Math.min(...afterBack) - back : NaN;
		const latencies = times.map((t) => t - started).sort((a, b) => a - b);
		console.log(
			`Postgres down ${OUTAGE_SECONDS} s (pg_ctl stop -m fast) during a burst of ${OUTAGE_BURST} replies to a worker on it:`,
		);
		console.log(
			`  lost ${lost} (must be 0); forwarded ${times.length}, ${afterBack.length} of them after Postgres was back, at ${perSecond.toFixed(0)} forwards/s; arrival -> e-mail p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (the outage itself ${OUTAGE_SECONDS * 1000} ms)`,
		);
		console.log(
			`  worker on Postgres logged: ${(log2.match(/spooling callbacks/g) ?? []).length ? 'spooled' : 'did not spool'}, ${(log2.match(/"level":"error"/g) ?? []).length} error lines; ${worker2.exitCode === null ? 'still running' : `exited ${worker2.exitCode}`}`,
		);
		console.log(
			`  after Postgres was back: first e-mail at +${firstAfter.toFixed(0)} ms, last at +${(lastAt - back).toFixed(0)} ms`,
		);
		if (lost > 0 || worker2.exitCode !== null) process.exitCode = 1;
	} finally {
		if (process.env.BENCH_LOG) writeFileSync(`${process.env.BENCH_LOG}.outage`, log2);
		worker2.kill('SIGTERM');
		await once(worker2, 'exit');
		pg.close();
	}
}

/** BENCH_WARM: two bursts of 1,000 replies through the sandbox to a sink, 2,000 mails to the SMTP server. */
async function warmSandboxAndSmtp() {
	const { createServer: createHttpServer } = await import('node:http');
	const nodemailer = (await import('nodemailer')).default;
	let calledBack = 0;
	const sink = createHttpServer((req, res) => {
		req.resume();
		req.on('end', () => {
			calledBack++;
			res.end();
		});
	});
	await new Promise((r) => sink.listen(0, '127.0.0.1', r));
	const sinkUrl = `http://127.0.0.1:${sink.address().port}/replies`;
	for (let round = 0; round < 2; round++) {
		const messages = Array.from({ length: 1000 }, (_, j) => ({
			To: `+6148${String(1_000_000 + round * 1000 + j).padStart(7, '0')}`,
			Text: 'warm-up',
			WebhookUri: sinkUrl,
		}));
		const sent = await post(
			`/v2/Properties/${sandbox.PropertySid}/BatchMessages`,
			{ Messages: messages },
			true,
		);
		const before = calledBack;
		await post('/_sandbox/replies', {
			Replies: sent.map((m) => ({ From: m.To, To: m.From, Text: 'warm-up' })),
		});
		while (calledBack < before + sent.length) await new Promise((r) => setTimeout(r, 20));
	}
	sink.close();
	const mailer = nodemailer.createTransport({
		host: '127.0.0.1',
		port: smtpPort,
		secure: false,
		ignoreTLS: true,
		pool: true,
		maxConnections: 32,
		maxMessages: Infinity,
	});
	await Promise.all(
		Array.from({ length: 2000 }, (_, i) =>
			mailer.sendMail({
				from: 'warm@example.com',
				to: 'team@example.com',
				subject: `warm-up ${i}`,
				text: 'warm-up',
			}),
		),
	);
	mailer.close();
}
