// Issue 33's chaos, the project's own: `cloudtel worker`s behind a round-robin balancer, a
// `campaign run` on the same ledger with delivery receipts to the workers, replies (each
// forwarded by e-mail to a real SMTP server) and STOPs from numbers the run has not reached
// yet, and seeded faults at once: SIGKILLs of the run and of a worker's copy, `kill -HUP`
// of a worker, SMTP outages and, on Postgres, the database stopped. At the end it prints
// each invariant and exits 1 if one is broken.
// `npm run soak -- --seconds 90 --seed 7741 [--rows 6000] [--db postgres|sqlite]`: Postgres
// has two workers; a SQLite file has one (it is one machine's ledger).
import { execFileSync, spawn } from 'node:child_process';
import {
	closeSync,
	existsSync,
	mkdtempSync,
	openSync,
	readSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../test/support/freePort.mjs';
import { soakBalancer } from './lib/soakBalancer.mjs';
import { soakInvariants } from './lib/soakInvariants.mjs';
import { soakLedger } from './lib/soakLedger.mjs';
import { soakMailbox } from './lib/soakMailbox.mjs';
import { startSandboxProcess, root } from './lib/sandboxProcess.mjs';
import { stoppablePostgres } from './lib/stoppablePostgres.mjs';

const { values } = parseArgs({
	options: {
		seconds: { type: 'string', default: '90' },
		seed: { type: 'string', default: '7741' },
		rows: { type: 'string', default: '6000' },
		db: { type: 'string', default: 'postgres' },
	},
});
if (values.db !== 'postgres' && values.db !== 'sqlite') {
	console.error(`--db must be postgres or sqlite (got "${values.db}")`);
	process.exit(2);
}
const POSTGRES = values.db === 'postgres';
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
/** Every process this soak started, killed if it fails on the way. */
const children = [];
process.on('uncaughtException', (error) => {
	console.error(error);
	for (const c of children) c.kill('SIGKILL');
	process.exit(1);
});

const dir = mkdtempSync(join(tmpdir(), 'cloudtel-soak-'));
const pgServer = POSTGRES ? await stoppablePostgres() : undefined;
if (pgServer) await soakLedger(pgServer.url)('CREATE DATABASE soak');
const db = pgServer ? pgServer.url.replace(/\/postgres$/, '/soak') : join(dir, 'soak.db');
const ledger = soakLedger(db);
const sandbox = await startSandboxProcess(['--fail-rate', '0.02']);
children.push(sandbox.child);

const ports = POSTGRES ? [await freePort(), await freePort()] : [await freePort()];
const balancer = await soakBalancer(ports, await freePort());
const publicUrl = balancer.url;
const mailbox = await soakMailbox(await freePort());

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
			smtp: {
				host: '127.0.0.1',
				port: mailbox.port,
				allowInsecure: true,
				from: 'soak@example.com',
			},
			// An outage of a few seconds is retried within seconds, not minutes.
			outbox: { backoffMs: 200, maxBackoffMs: 3000 },
			replies: [{ name: 'all', actions: [{ type: 'forwardEmail', to: 'team@example.com' }] }],
		}),
	);
	// Its log is kept in the soak's folder, which a failed soak leaves behind.
	const child = spawn(process.execPath, [CLI, 'worker', '--config', config], {
		env,
		stdio: ['ignore', openSync(join(dir, `worker${i}.log`), 'a'), 'inherit'],
	});
	children.push(child);
	return { child, exited: false };
});
for (const w of workers) w.child.on('exit', () => (w.exited = true));
for (const port of ports)
	for (let up = false; !up; await sleep(200))
		up = await fetch(`http://127.0.0.1:${port}/health`).then(
			() => true,
			() => false,
		);

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
	'--receipt-url',
	`${publicUrl}/callbacks/${SECRET}/receipts`,
	'--reply-url',
	`${publicUrl}/callbacks/${SECRET}/replies`,
	'--json',
];
function startRun() {
	const out = openSync(join(dir, 'run.log'), 'a');
	run = spawn(process.execPath, [CLI, ...runArgs], { env, stdio: ['ignore', out, out] });
	closeSync(out);
	children.push(run);
	run.on('exit', (code) => {
		if (code === 0 || code === 3) runDone = true;
		else setTimeout(() => !runDone && startRun(), 500);
	});
}
startRun();

const counts = {
	runKills: 0,
	copyKills: 0,
	hups: 0,
	smtpOutages: 0,
	pgStops: 0,
	stops: 0,
	replies: 0,
};
const replySids = [];
const stopSent = new Map();
const end = Date.now() + SECONDS * 1000;
/** Each fault and when it began: a copy of a mail is told what came before it. */
const faultLog = [];
const fault = (kind) => (counts[kind]++, faultLog.push({ kind, at: Date.now() }));
const aWorker = () => workers[Math.floor(random() * workers.length)];
const faults = (async () => {
	while (Date.now() < end) {
		await sleep(2000 + random() * 4000);
		const pick = random();
		if (pick < 0.2) {
			await mailbox.stop();
			fault('smtpOutages');
			await sleep(2000 + random() * 6000);
			await mailbox.start();
		} else if (pick < 0.4 && POSTGRES) {
			pgServer.stop();
			fault('pgStops');
			await sleep(2000 + random() * 4000);
			pgServer.start();
		} else if (pick < 0.55 && run?.exitCode === null) {
			run.kill('SIGKILL');
			fault('runKills');
		} else if (pick < 0.8) {
			const copies = execFileSync('ps', ['-o', 'pid=', '--ppid', String(aWorker().child.pid)], {
				encoding: 'utf8',
			})
				.trim()
				.split(/\s+/)
				.filter(Boolean);
			if (copies.length > 0) process.kill(Number(copies[0]), 'SIGKILL');
			fault('copyKills');
		} else {
			aWorker().child.kill('SIGHUP');
			fault('hups');
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
log('faults over; waiting for the run, the receipts and the e-mails', counts);
for (let t = 0; !runDone && t < 600; t++) await sleep(1000);
log(runDone ? 'the run is done' : 'the run did not finish in 600 s');

// Drained: the last receipts called back (200 ms after a send, retried within 1.5 s), and
// nothing left to process or to mail, three looks in a row. A callback answered 200 may
// still be in a spool, a killed copy's among them (fed within 5 s, once the store answers):
// a spool holds something while its first byte is not zero (spoolFile.ts writes from the
// start and zeroes it once fed).
const spooled = () =>
	workers
		.map((_, i) => join(dir, `spool${i}`))
		.filter((d) => existsSync(d))
		.flatMap((d) => readdirSync(d).map((name) => join(d, name)))
		.filter((path) => {
			// A spool fed meanwhile may be removed between the listing and the look.
			let fd;
			try {
				fd = openSync(path, 'r');
			} catch (error) {
				if (error.code === 'ENOENT') return false;
				throw error;
			}
			const first = Buffer.alloc(1);
			const read = readSync(fd, first, 0, 1, 0);
			closeSync(fd);
			return read === 1 && first[0] !== 0;
		}).length;
await sleep(3000);
for (let quiet = 0, t = 0; quiet < 3 && t < 120; t++, await sleep(1000)) {
	const [{ n: events }] = await ledger(
		'SELECT COUNT(*) AS n FROM callback_events WHERE processed_at IS NULL',
	);
	const [{ n: forwards }] = await ledger(
		`SELECT COUNT(*) AS n FROM forwards WHERE state IN ('pending', 'sending')`,
	);
	quiet = Number(events) + Number(forwards) + spooled() === 0 ? quiet + 1 : 0;
}
log('drained');

const outbox = await (await fetch(`${sandbox.url}/_sandbox/outbox`)).json();
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
const statuses = Object.fromEntries(
	(
		await ledger(
			`SELECT status, COUNT(*) AS n FROM recipients WHERE campaign = 'soak' GROUP BY status`,
		)
	).map((r) => [r.status, Number(r.n)]),
);
const invariants = soakInvariants({
	callbacks: outbox.Callbacks,
	messages,
	mails: mailbox.mails,
	acknowledgedAt: balancer.acknowledgedAt,
	stops: stopSent,
	replies: replySids,
	statuses,
	deliveries: await ledger(
		`SELECT line, message_sid, status FROM deliveries WHERE campaign = 'soak'`,
	),
	runDone,
	alive: workers.filter((w) => !w.exited).length,
	workers: workers.length,
	faults: faultLog,
});
log('soak result', {
	db: values.db,
	seed: Number(values.seed),
	seconds: SECONDS,
	rows: ROWS,
	faults: counts,
});
for (const i of invariants) log(i.ok ? 'invariant held' : 'invariant BROKEN', i);
const ok = invariants.every((i) => i.ok);
// What the ledger and the sandbox hold for each unsettled receipt: where it stopped.
const receipts = invariants.find((i) => i.invariant === 'every acknowledged receipt settled');
for (const externalId of receipts.ok ? [] : receipts.unsettled.first) {
	const line = Number(String(externalId).split(':')[1]);
	const calls = outbox.Callbacks.filter(
		(c) => c.Kind === 'DeliveryReceipt' && c.Payload.ExternalId === externalId,
	);
	const sids = [...new Set(calls.map((c) => c.MessageSid))];
	log('unsettled receipt', {
		externalId,
		callbacks: calls.map((c) => ({
			sid: c.MessageSid,
			status: c.Payload.Status,
			attempt: c.Attempt,
			at: c.At,
			code: c.StatusCode ?? c.Error,
		})),
		recipient: await ledger(`SELECT * FROM recipients WHERE campaign = 'soak' AND line = ${line}`),
		delivery: await ledger(`SELECT * FROM deliveries WHERE campaign = 'soak' AND line = ${line}`),
		indexed: await ledger(`SELECT * FROM message_sids WHERE campaign = 'soak' AND line = ${line}`),
		events: (
			await Promise.all(
				sids.map((sid) =>
					ledger(
						`SELECT event_key, received_at, processed_at FROM callback_events WHERE payload LIKE '%${sid}%'`,
					),
				),
			)
		).flat(),
	});
}

for (const w of workers) w.child.kill('SIGTERM');
await Promise.all(
	workers.map((w) => (w.exited ? undefined : new Promise((r) => w.child.once('exit', r)))),
);
run?.kill('SIGKILL');
balancer.close();
await mailbox.stop();
await sandbox.stop();
pgServer?.close();
// What the workers and the run left is kept when the soak fails.
if (ok) rmSync(dir, { recursive: true, force: true });
log(ok ? 'soak passed' : 'soak FAILED', ok ? {} : { dir });
process.exit(ok ? 0 : 1);
