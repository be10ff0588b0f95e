import {
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';

/** What the proxy does with a batch request that carries messages. */
export type BatchFate = 'pass' | 'answerLost' | 'answerCut' | 'neverSent';

/**
 * An HTTP proxy in front of the sandbox that decides, batch by batch, what a crash would
 * have left: `pass` forwards and answers; `answerLost` forwards to the sandbox, which
 * sends the messages, but never answers the client; `answerCut` forwards it too, then
 * closes the client's connection instead of answering; `neverSent` holds the request
 * without forwarding it. Other requests (the empty preflight batch) always pass.
 * `holdAnswer`, when given, may keep a passed batch's answer (the sandbox has sent its
 * messages) until the promise it returns settles: a test can then act, or kill the
 * client, while that request is surely in flight.
 */
export class HoldingProxy {
	private readonly server: Server;
	private readonly held: ServerResponse[] = [];
	/** The ExternalIds of each batch, by fate, in the order they came. */
	readonly batches: { fate: BatchFate; externalIds: string[] }[] = [];
	url = '';

	constructor(
		private readonly target: string,
		private readonly fateOf: (batch: number) => BatchFate,
		private readonly holdAnswer?: (batch: number) => Promise<void>,
	) {
		this.server = createServer((req, res) => void this.handle(req, res));
	}

	async start(): Promise<string> {
		await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
		this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
		return this.url;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const body = Buffer.concat(chunks);
		let messages: { ExternalId?: string }[] = [];
		try {
			messages =
				(JSON.parse(body.toString('utf8')) as { Messages?: { ExternalId?: string }[] }).Messages ??
				[];
		} catch {
			// Not a batch: passed through as it is.
		}
		const batch = this.batches.length;
		const fate = messages.length > 0 ? this.fateOf(batch) : 'pass';
		if (messages.length > 0)
			this.batches.push({ fate, externalIds: messages.map((m) => m.ExternalId ?? '') });
		if (fate === 'neverSent') {
			this.held.push(res);
			return;
		}
		const answer = await this.forward(req, body);
		if (fate === 'answerLost') {
			this.held.push(res);
			return;
		}
		if (fate === 'answerCut') {
			res.socket?.destroy();
			return;
		}
		if (messages.length > 0 && this.holdAnswer) {
			this.held.push(res);
			await this.holdAnswer(batch);
			if (res.destroyed) return;
		}
		res.writeHead(answer.status, answer.headers);
		res.end(answer.body);
	}

	private forward(
		req: IncomingMessage,
		body: Buffer,
	): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
		return new Promise((resolve, reject) => {
			const out = request(
				`${this.target}${req.url}`,
				{ method: req.method, headers: { ...req.headers, host: new URL(this.target).host } },
				(answer) => {
					const chunks: Buffer[] = [];
					answer.on('data', (c: Buffer) => chunks.push(c));
					answer.on('end', () => {
						const headers: Record<string, string> = {};
						for (const [k, v] of Object.entries(answer.headers))
							if (typeof v === 'string' && k !== 'connection' && k !== 'transfer-encoding')
								headers[k] = v;
						resolve({ status: answer.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
					});
				},
			);
			out.on('error', reject);
			out.end(body);
		});
	}

	/** Batches of a fate, the ExternalIds of their messages. */
	externalIds(fate: BatchFate): string[] {
		return this.batches.filter((b) => b.fate === fate).flatMap((b) => b.externalIds);
	}

	async close(): Promise<void> {
		for (const res of this.held.splice(0)) res.destroy();
		this.server.closeAllConnections();
		await new Promise((r) => this.server.close(r));
	}
}
