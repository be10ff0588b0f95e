// The soak's balancer: each request to the next worker in turn; one that does not answer
// costs a 502 (the provider retries). It notes the millisecond each callback's MessageSid
// was first answered 2xx: the moment a STOP was acknowledged, as the provider saw it.
import { once } from 'node:events';
import { createServer, request } from 'node:http';

export async function soakBalancer(ports, port) {
	const acknowledgedAt = new Map();
	let turn = 0;
	const server = createServer(async (req, res) => {
		// A caller that hangs up (the provider's timeout) ends only its own request.
		req.on('error', () => undefined);
		res.on('error', () => undefined);
		const chunks = [];
		try {
			for await (const c of req) chunks.push(c);
		} catch {
			return void res.destroy();
		}
		const body = Buffer.concat(chunks);
		const up = request(
			new URL(req.url, `http://127.0.0.1:${ports[turn++ % ports.length]}`),
			{ method: req.method, headers: req.headers },
			(answer) => {
				const status = answer.statusCode ?? 502;
				if (status >= 200 && status < 300 && req.url.includes('/callbacks/')) {
					const sid = sidOf(body);
					if (sid && !acknowledgedAt.has(sid)) acknowledgedAt.set(sid, Date.now());
				}
				answer.on('error', () => res.destroy());
				res.writeHead(status, answer.headers);
				answer.pipe(res);
			},
		);
		up.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
		up.end(body);
	});
	server.listen(port, '127.0.0.1');
	await once(server, 'listening');
	return { url: `http://127.0.0.1:${port}`, acknowledgedAt, close: () => server.close() };
}

function sidOf(body) {
	try {
		return JSON.parse(body.toString('utf8')).MessageSid;
	} catch {
		return undefined;
	}
}
