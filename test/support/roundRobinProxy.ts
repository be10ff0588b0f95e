import {
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';

/**
 * A load balancer as small as it gets: each request goes to the next target in turn,
 * and a target that does not answer (a killed worker) costs that request a 502, as a real
 * balancer without health checks would answer. The provider then tries again.
 */
export class RoundRobinProxy {
	private readonly server: Server;
	private next = 0;
	url = '';
	/** Requests that met a target that did not answer. */
	failed = 0;

	constructor(private readonly targets: string[]) {
		this.server = createServer((req, res) => void this.pass(req, res));
	}

	async start(): Promise<string> {
		await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
		this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
		return this.url;
	}

	private async pass(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const target = new URL(req.url ?? '/', this.targets[this.next++ % this.targets.length]);
		const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		upstream.on('error', () => {
			this.failed++;
			if (!res.headersSent) res.writeHead(502).end();
			else res.destroy();
		});
		upstream.end(Buffer.concat(chunks));
	}

	close(): Promise<void> {
		return new Promise((r) => this.server.close(() => r()));
	}
}
