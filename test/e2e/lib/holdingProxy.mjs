// A small HTTP proxy in front of the cloudtel worker's API that holds one request (the first
// whose method and path match) until the scenario lets it go: a hand-over caught half-way,
// every time, however fast or slow the machine. Every other request passes straight through.
import { createServer, request } from 'node:http';
import { freePort } from './n8n.mjs';

function deferred() {
	let resolve;
	const promise = new Promise((r) => (resolve = r));
	return { promise, resolve };
}

/** The client's headers, less those that describe its own framing of the body. */
function withoutLength(headers) {
	const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = headers;
	return rest;
}

/** One request to `target` with the method, path, headers and body given; resolves {status, body}. */
function forward(target, { method, url, headers, body }) {
	const { hostname, port } = new URL(target);
	return new Promise((resolve, reject) => {
		const out = request(
			{
				hostname,
				port,
				method,
				path: url,
				headers: {
					...withoutLength(headers),
					host: `${hostname}:${port}`,
					connection: 'close',
					'content-length': String(body.length),
				},
			},
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () =>
					resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
				);
				res.on('error', reject);
			},
		);
		out.on('error', reject);
		out.end(body);
	});
}

/**
 * Starts the proxy to `target` (the worker's URL). `hold(method, path)` picks the request to
 * hold; `held` resolves once it has fully arrived, `clientGone` once the client that sent it
 * closed its connection (killed), and `release()` sends it on to the worker then, resolving
 * the worker's answer. `log` lists every request: {method, path, status, body}.
 */
export async function startHoldingProxy(target, { hold }) {
	const port = await freePort();
	const held = deferred();
	const clientGone = deferred();
	const released = deferred();
	let holding = false;
	const log = [];
	const server = createServer((req, res) => {
		res.on('error', () => {});
		req.on('error', () => {});
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', async () => {
			const message = {
				method: req.method,
				url: req.url,
				headers: req.headers,
				body: Buffer.concat(chunks),
			};
			const entry = { method: req.method, path: req.url };
			log.push(entry);
			const toHold = !holding && hold(req.method, req.url);
			if (toHold) {
				holding = true;
				req.socket.once('close', () => clientGone.resolve());
				held.resolve(entry);
				await released.promise;
			}
			let answer;
			try {
				answer = await forward(target, message);
			} catch (error) {
				answer = {
					status: 502,
					headers: { 'content-type': 'text/plain' },
					body: Buffer.from(String(error)),
				};
			}
			entry.status = answer.status;
			try {
				entry.body = JSON.parse(answer.body.toString('utf8'));
			} catch {
				entry.body = answer.body.toString('utf8');
			}
			if (res.socket?.destroyed) return;
			res.writeHead(answer.status, {
				'content-type': answer.headers['content-type'] ?? 'application/json',
			});
			res.end(answer.body);
		});
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${port}`,
		log,
		held: held.promise,
		clientGone: clientGone.promise,
		/** Sends the held request on to the worker; resolves its log entry once the worker answered. */
		async release() {
			const entry = await held.promise;
			released.resolve();
			while (entry.status === undefined) await new Promise((r) => setTimeout(r, 50));
			return entry;
		},
		close: () =>
			new Promise((resolve) => {
				released.resolve();
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}
