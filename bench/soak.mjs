// Two `cloudtel worker`s on one Postgres behind a round-robin balancer, a `campaign run` on
// the Postgres ledger, replies and STOPs (from numbers the run has not reached yet), and
// seeded faults at once: Postgres stopped for 2-6 s, SIGKILLs of the run and of a worker's
// copy, `kill -HUP` of a worker. At the end it prints the invariants of issue 33 and exits 1
// if one is broken. `npm run soak -- --seconds 90 --seed 7741` (needs `npm run build`).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createServer as netServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startSandboxProcess, root } from './lib/sandboxProcess.mjs';
import { stoppablePostgres } from './lib/stoppablePostgres.mjs';

const { values } = parseArgs({
	options: {
		seconds: { type: 'string', default: '90' },
		seed: { type: 'string', default: '7741' },
		rows: { type: 'string', default: '6000' },
	},
});
const SECONDS = Number(values.seconds);
const ROWS = Number(values.rows);
const SECRET = 'soak-callback-secret-0123456789';
const STOPS = 40;
const CLI = join(root, 'worker/bin/cloudtel.js');

// mulberry32: the same seed, the same faults in the same order.
let seed = Number(values.seed) >>> 0;
const random = () => {
	seed = (seed + 0x6d2b79f5) >>> 0;
	let t = seed;
	t = Math.imul(t ^ (t >>> 15), t | 1);
	t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg, fields = {}) =>
	console.log(JSON.stringify({ at: new Date().toISOString(), msg, ...fields }));
const freePort = () =>
	new Promise((resolve) => {
		const s = netServer();
		s.listen(0, '127.0.0.1', () => {
			const { port } = s.address();
			s.close(() => resolve(port));
		});
	});
/** Every process this soak started, killed if it fails on the way. */
const children = [];
process.on('uncaughtException', (error) => {
	console.error(error);
	for (const c of children) c.kill('SIGKILL');
	process.exit(1);
});
async function sql(url, text, args = []) {
	const c = new pg.Client({ connectionString: url });
	await c.connect();
	try {
		return (await c.query(text, args)).rows;
	} finally {
		await c.end();
	}
}

const dir = mkdtempSync(join(tmpdir(), 'cloudtel-soak-'));
const pgServer = await stoppablePostgres();
await sql(pgServer.url, 'CREATE DATABASE soak');
const db = pgServer.url.replace(/\/postgres$/, '/soak');
const sandbox = await startSandboxProcess(['--fail-rate', '0.02']);
children.push(sandbox.child);

// The balancer: each request to the next worker in turn; one that does not answer costs a 502 (the provider retries).
const ports = [await freePort(), await freePort()];
let turn = 0;
const proxy = createServer(async (req, res) => {
	const chunks = [];
	for await (const c of req) chunks.push(c);
	const up = request(
		new URL(req.url, `http://127.0.0.1:${ports[turn++ % 2]}`),
		{ method: req.method, headers: req.headers },
		(answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		},
	);
	up.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
	up.end(Buffer.concat(chunks));
});
proxy.listen(await freePort(), '127.0.0.1');
await once(proxy, 'listening');
const publicUrl = `http://127.0.0.1:${proxy.address().port}`;

// Where every reply is forwarded (POST), by its Idempotency-Key.
const forwarded = new Map();
const receiver = createServer((req, res) => {
	const key = String(req.headers['idempotency-key'] ?? '');
	forwarded.set(key, (forwarded.get(key) ?? 0) + 1);
	req.resume();
	req.on('end', () => res.writeHead(200).end());
});
receiver.listen(await freePort(), '127.0.0.1');
await once(receiver, 'listening');

const env = {
	...process.env,
	CLOUDTEL_BASE_URL: sandbox.url,
	CLOUDTEL_ACCOUNT_SID: sandbox.AccountSid,
	CLOUDTEL_AUTH_TOKEN: sandbox.AuthToken,
};
const workers = ports.map((port, i) => {
	const config = join(dir, `worker${i}.json`);
	writeFileSync(
		config,
		JSON.stringify({
			provider: { baseUrl: sandbox.url },
			db,
			server: { publicUrl, port, host: '127.0.0.1', secret: SECRET },
			spool: { dir: join(dir, `spool${i}`) },
			replies: [
				{
					name: 'all',
					actions: [{ type: 'post', url: `http://127.0.0.1:${receiver.address().port}/replies` }],
				},
			],
		}),
	);
	const child = spawn(process.execPath, [CLI, 'worker', '--config', config], {
		env,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	children.push(child);
	return { child, exited: false };
});
for (const w of workers) w.child.on('exit', () => (w.exited = true));
await sleep(3000);

// Numbers the run reaches last: each first gets a message of another run, so its STOP reaches the workers.
const phone = (row) => `+614${String(20_000_000 + row).slice(-8)}`;
const stopRows = Array.from(
	{ length: STOPS },
	(_, i) => ROWS - 1 - i * Math.floor(ROWS / (2 * STOPS)),
);
const leased = new Map();
for (const row of stopRows) {
	// The sandbox fails some requests (--fail-rate): asked again.
	for (let res; !leased.has(row); ) {
		res = await fetch(`${sandbox.url}/v2/Properties/${sandbox.PropertySid}/Messages`, {
			method: 'POST',
			headers: { authorization: sandbox.auth, 'content-type': 'application/json' },
			body: JSON.stringify({
				To: phone(row),
				Text: 'Welcome',
				ExternalId: `bind:${row}`,
				WebhookUri: `${publicUrl}/callbacks/${SECRET}/replies`,
			}),
		});
		if (res.ok) leased.set(row, (await res.json()).Message.From);
	}
}
writeFileSync(
	join(dir, 'list.csv'),
	`Phone,Name\n${Array.from({ length: ROWS }, (_, i) => `${phone(i)},N${i}`).join('\n')}\n`,
);

// The run, started again whenever a fault kills it, until it has accounted for every row.
let run;
let runDone = false;
const runArgs = [
	'campaign',
	'run',
	'--db',
	db,
	'--csv',
	join(dir, 'list.csv'),
	'--name',
	'soak',
	'--property',
	sandbox.PropertySid,
	'--text',
	'Hi {{Name}}',
	'--rate',
	String(Math.ceil(ROWS / (SECONDS * 0.6))),
	'--batch-size',
	'50',
	'--reply-url',
	`${publicUrl}/callbacks/${SECRET}/replies`,
	'--json',
];
function startRun() {
	run = spawn(process.execPath, [CLI, ...runArgs], { env, stdio: ['ignore', 'ignore', 'ignore'] });
	children.push(run);
	run.on('exit', (code) => {
		if (code === 0 || code === 3) runDone = true;
		else setTimeout(() => !runDone && startRun(), 500);
	});
}
startRun();

const counts = { pgStops: 0, runKills: 0, copyKills: 0, hups: 0, stops: 0, replies: 0 };
const replySids = [];
const stopSent = new Map();
const end = Date.now() + SECONDS * 1000;
let pgDown = false;
const faults = (async () => {
	while (Date.now() < end) {
		await sleep(2000 + random() * 4000);
		const pick = random();
		if (pick < 0.3 && !pgDown) {
			pgDown = true;
			pgServer.stop();
			counts.pgStops++;
			await sleep(2000 + random() * 4000);
			pgServer.start();
			pgDown = false;
		} else if (pick < 0.5 && run?.exitCode === null) {
			run.kill('SIGKILL');
			counts.runKills++;
		} else if (pick < 0.75) {
			const w = workers[Math.floor(random() * 2)];
			const copies = execFileSync('ps', ['-o', 'pid=', '--ppid', String(w.child.pid)], {
				encoding: 'utf8',
			})
				.trim()
				.split(/\s+/)
				.filter(Boolean);
			if (copies.length > 0) process.kill(Number(copies[0]), 'SIGKILL');
			counts.copyKills++;
		} else {
			workers[Math.floor(random() * 2)].child.kill('SIGHUP');
			counts.hups++;
		}
	}
})();
const replies = (async () => {
	let next = 0;
	while (Date.now() < end) {
		await sleep(300);
		const row = stopRows[next % STOPS];
		const stop = next < STOPS && random() < 0.5;
		const body = { From: phone(row), To: leased.get(row), Text: stop ? 'STOP' : `reply ${next}` };
		const res = await fetch(`${sandbox.url}/_sandbox/replies`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const sid = (await res.json()).MessageSid;
		if (stop) {
			stopSent.set(sid, row);
			counts.stops++;
		} else {
			replySids.push(sid);
			counts.replies++;
		}
		next++;
	}
})();
await Promise.all([faults, replies]).catch((error) => process.emit('uncaughtException', error));
log('faults over; waiting for the run and the forwards', counts);
for (let t = 0; !runDone && t < 600; t++) await sleep(1000);
await sleep(15_000);

// The invariants.
const outbox = await (await fetch(`${sandbox.url}/_sandbox/outbox`)).json();
const acknowledged = new Map();
for (const c of outbox.Callbacks)
	if (c.Delivered && !acknowledged.has(c.MessageSid)) acknowledged.set(c.MessageSid, c.At);
const messages = [];
for (let token = ''; ; ) {
	const page = await (
		await fetch(
			`${sandbox.url}/_sandbox/messages?${new URLSearchParams({ Results_Count: '1000', ...(token ? { PageToken: token } : {}) })}`,
		)
	).json();
	messages.push(...page.Messages);
	if (!(token = page.NextPageToken)) break;
}
const byRow = new Map();
for (const m of messages)
	if (String(m.ExternalId).startsWith('soak:'))
		byRow.set(m.ExternalId, [...(byRow.get(m.ExternalId) ?? []), m]);
const duplicates = [...byRow.values()].filter((ms) => ms.length > 1).length;
const statuses = Object.fromEntries(
	(
		await sql(
			db,
			`SELECT status, COUNT(*)::int AS n FROM recipients WHERE campaign = 'soak' GROUP BY status`,
		)
	).map((r) => [r.status, r.n]),
);
// A STOP answered 200 (its callback's attempt began at `at`): no message of the run to its number created a second or more after.
const stopsBroken = [];
for (const [sid, row] of stopSent) {
	const at = acknowledged.get(sid);
	if (at === undefined) continue;
	const m = (byRow.get(`soak:${row + 2}`) ?? [])[0];
	if (m && m.Created > Math.ceil(at / 1000) + 1) stopsBroken.push(row + 2);
}
const repliesAcked = replySids.filter((s) => acknowledged.has(s));
const notForwarded = repliesAcked.filter(
	(s) => ![...forwarded.keys()].some((k) => k.startsWith(s)),
);
const forwardedTwice = repliesAcked.filter(
	(s) => [...forwarded.keys()].filter((k) => k.startsWith(s)).length > 1,
);
const alive = workers.filter((w) => !w.exited).length;
const result = {
	seed: Number(values.seed),
	seconds: SECONDS,
	faults: counts,
	rows: statuses,
	messages: byRow.size,
	duplicates,
	lost: (statuses.pending ?? 0) + (statuses.submitting ?? 0),
	stopsAcknowledged: [...stopSent.keys()].filter((s) => acknowledged.has(s)).length,
	stopsBroken,
	repliesAcknowledged: repliesAcked.length,
	repliesNotForwarded: notForwarded.length,
	repliesForwardedTwice: forwardedTwice.length,
	workersAlive: alive,
};
log('soak result', result);
const ok =
	runDone &&
	duplicates === 0 &&
	result.lost === 0 &&
	stopsBroken.length === 0 &&
	notForwarded.length === 0 &&
	forwardedTwice.length === 0 &&
	alive === 2;
for (const w of workers) w.child.kill('SIGTERM');
await Promise.all(workers.map((w) => (w.exited ? undefined : once(w.child, 'exit'))));
run?.kill('SIGKILL');
proxy.close();
receiver.close();
await sandbox.stop();
pgServer.close();
log(ok ? 'soak passed' : 'soak FAILED');
process.exit(ok ? 0 : 1);
