import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CaughtRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingMessage['headers'];
	body: any;
	/** The body as it came, byte for byte as text: what a signature covers. */
	text: string;
	/** The caller's port: requests that share one came over one kept-alive connection. */
	remotePort?: number;
}

/** A real HTTP server that records what the sandbox calls back, answering `status`. */
export class CallbackCatcher {
	readonly requests: CaughtRequest[] = [];
	/** Answers in turn; the last one repeats. */
	statuses: number[] = [200];
	private server!: Server;
	url = '';

	/** `port`: a given one (a receiver that comes back where it was), else a free one. */
	static async start(port = 0): Promise<CallbackCatcher> {
		const catcher = new CallbackCatcher();
		catcher.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				const url = new URL(req.url ?? '/', 'http://x');
				const text = Buffer.concat(chunks).toString('utf8');
				catcher.requests.push({
					method: req.method ?? '',
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					headers: req.headers,
					body: text ? JSON.parse(text) : undefined,
					text,
					remotePort: req.socket.remotePort,
				});
				const i = Math.min(catcher.requests.length - 1, catcher.statuses.length - 1);
				res.writeHead(catcher.statuses[i]).end();
			});
		});
		await new Promise<void>((r) => catcher.server.listen(port, '127.0.0.1', r));
		catcher.url = `http://127.0.0.1:${(catcher.server.address() as AddressInfo).port}`;
		return catcher;
	}

	close(): Promise<void> {
		return new Promise((r) => this.server.close(() => r()));
	}
}

/** An event's key, as its receiver got it: the Idempotency-Key header. */
export const key = (r: CaughtRequest) => String(r.headers['idempotency-key']);
