// Several workers, one Postgres: one campaign sent by 1, 2 and 3 `cloudtel worker`
// processes to a sandbox whose answers take 200 ms, with the same concurrency per worker.
// The work is latency-bound, so messages/s should grow with the workers (goal: at least
// 0.8x linear). Then three workers against a sandbox limiting the account to 200 messages/s,
// with the campaign's rate at 200: together they should reach >= 0.95 of it, with <= 1% of
// requests answered 429. Figures from one run; the machine may be shared, so they are
// indicative.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { newDatabase, startPostgres } from './lib/benchPostgres.mjs';
import { startSandboxProcess, root } from './lib/sandboxProcess.mjs';

const ROWS = Number(process.env.SCALEOUT_ROWS ?? 2400);
const LIMITED_ROWS = Number(process.env.SCALEOUT_LIMITED_ROWS ?? 2000);
const SECRET = 'bench-callback-secret-0123';

function freePort() {
	return new Promise((resolve) => {
		const s = createServer();
		s.listen(0, '127.0.0.1', () => {
			const { port } = s.address();
			s.close(() => resolve(port));
		});
	});
}

async function query(url, text) {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		return (await client.query(text)).rows;
	} finally {
		await client.end();
	}
}

function startWorker(config) {
	const child = spawn(
		process.execPath,
		[join(root, 'worker/bin/cloudtel.js'), 'worker', '--config', config],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const logs = [];
	createInterface({ input: child.stdout }).on('line', (l) => {
		try {
			logs.push(JSON.parse(l));
		} catch {
			// not a log line
		}
	});
	return { child, logs };
}

async function waitFor(check, ms, what) {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** One campaign of `rows` sent by `n` workers; returns messages/s over the span of the sends, and 429 retries. */
async function phase({ adminUrl, sandbox, n, rows, rate, batchSize, name }) {
	const db = await newDatabase(adminUrl, name);
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-scaleout-'));
	let csv = 'Phone,Name\n';
	for (let i = 0; i < rows; i++) csv += `+614${String(30_000_000 + i).slice(-8)},N${i}\n`;
	writeFileSync(join(dir, 'list.csv'), csv);
	const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + (6 + 2 * n) * 1000);
	const cron = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
	const workers = [];
	for (let i = 0; i < n; i++) {
		const port = await freePort();
		const config = join(dir, `w${i}.json`);
		writeFileSync(
			config,
			JSON.stringify({
				provider: {
					baseUrl: sandbox.url,
					accountSid: sandbox.AccountSid,
					authToken: sandbox.AuthToken,
				},
				db,
				server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', secret: SECRET },
				campaigns: [
					{
						name: 'bench',
						cron,
						timeZone: 'UTC',
						csv: 'list.csv',
						toColumn: 'Phone',
						property: sandbox.PropertySid,
						text: 'Hi {{Name}}',
						rate,
						batchSize,
						receipts: false,
						replies: false,
					},
				],
			}),
		);
		const w = startWorker(config);
		await waitFor(
			() => w.logs.some((l) => l.msg === 'worker started'),
			30_000,
			'a worker to start',
		);
		workers.push(w);
	}
	if (Date.now() > at.getTime() - 500)
		throw new Error('the workers took too long to start for the tick');
	await waitFor(
		() => workers.every((w) => w.logs.some((l) => l.msg === 'campaign summary')),
		300_000,
		'the run to finish',
	);
	// Each answer is stored with the moment it came (answers.at), as one row per chunk.
	const [span] = await query(
		db,
		`SELECT (SELECT COUNT(*)::int FROM recipients WHERE status = 'accepted') AS n, MIN(at)::float8 AS first, MAX(at)::float8 AS last FROM answers`,
	);
	const retries429 = workers.reduce(
		(k, w) => k + w.logs.filter((l) => l.msg === 'campaign retry' && l.status === 429).length,
		0,
	);
	const chunks = Math.ceil(span.n / Math.min(batchSize, Math.max(1, Math.ceil(rate / 10))));
	for (const w of workers) w.child.kill('SIGTERM');
	await Promise.all(workers.map((w) => once(w.child, 'exit')));
	// The last answer's arrival ends the span; the first request left one answer earlier.
	const seconds = (span.last - span.first) / 1000;
	return {
		accepted: span.n,
		seconds,
		perSecond: span.n / seconds,
		retries429,
		requests: chunks + retries429,
	};
}

const postgres = await startPostgres();
try {
	const slow = await startSandboxProcess(['--latency-ms', '200']);
	const results = [];
	try {
		for (const n of [1, 2, 3]) {
			const r = await phase({
				adminUrl: postgres.url,
				sandbox: slow,
				n,
				rows: ROWS,
				rate: 100_000,
				batchSize: 10,
				name: `scaleout_${n}`,
			});
			results.push(r);
			console.log(
				`${n} worker(s): ${r.accepted} messages in ${r.seconds.toFixed(2)} s = ${r.perSecond.toFixed(0)} messages/s`,
			);
		}
	} finally {
		await slow.stop();
	}
	const [one, two, three] = results;
	console.log(
		`scale-out (latency 200 ms, 4 requests of 10 in flight per worker): 2 workers ${(two.perSecond / one.perSecond).toFixed(2)}x of one (linear 2, goal >= 1.6), 3 workers ${(three.perSecond / one.perSecond).toFixed(2)}x (linear 3, goal >= 2.4)`,
	);

	const limited = await startSandboxProcess(['--rate-limit', '200', '--latency-ms', '200']);
	try {
		const r = await phase({
			adminUrl: postgres.url,
			sandbox: limited,
			n: 3,
			rows: LIMITED_ROWS,
			rate: 200,
			batchSize: 1000,
			name: 'scaleout_limited',
		});
		console.log(
			`rate limit 200/s, campaign rate 200, 3 workers: ${r.perSecond.toFixed(1)} messages/s = ${(r.perSecond / 200).toFixed(3)} of the limit (goal >= 0.95); ` +
				`${r.retries429} of ${r.requests} requests answered 429 = ${((100 * r.retries429) / r.requests).toFixed(2)}% (goal <= 1%)`,
		);
	} finally {
		await limited.stop();
	}
} finally {
	postgres.stop();
}
