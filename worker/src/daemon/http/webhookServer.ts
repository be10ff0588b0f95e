import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { callbackEventKey, parseCallback, type CallbackEvent } from '../../../../api';
import type { Logger } from '../jsonLogger';
import { callbackPayload } from './callbackPayload';
import { readCallbackPath } from './callbackUrls';
import type { HealthReport } from './healthCheck';
import { RefusalLog } from './refusalLog';
import { REPORT_HEADERS, reportRoute } from './reportRoutes';
import type { Ledger } from '../../ledger/ledger';
import { BodyTooLarge, readBody } from './readBody';
import { secretMatches } from './secretMatches';

export interface WebhookServerOptions {
	host: string;
	port: number;
	/** The callback secret, and the one before it while a rotation is under way. */
	secrets: readonly string[];
	/** Callbacks must name it: the secret alone is in every message the provider keeps. */
	accountSid: string;
	maxBodyBytes: number;
	/** Open connections at once; those beyond are answered 503. */
	maxConnections: number;
	/** Durable when it resolves; false for a duplicate. */
	store(key: string, event: CallbackEvent, receivedAt: number): Promise<boolean>;
	/** Called after a new event has been stored and answered. */
	stored(event: CallbackEvent): void;
	/** GET /health and /ready; never throws for a fault it knows of. */
	health(): Promise<HealthReport>;
	/** Shows /health's details; the reports' token. */
	healthToken?: string;
	/** GET /campaigns: the campaign reports, behind this token; none without one. */
	reports?: { token: string | undefined; ledger: Ledger };
	log: Logger;
}

const KIND = { receipts: 'receipt', replies: 'reply' } as const;

/** An error that only says the client went away: nothing for anyone to act on. */
function clientGone(req: IncomingMessage, error: Error): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return req.destroyed || error.message === 'aborted' || code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'EPIPE';
}

function send(res: ServerResponse, status: number, body: Record<string, unknown>, close = false): void {
	const text = JSON.stringify(body);
	const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
	if (close) headers.connection = 'close';
	res.writeHead(status, headers).end(text);
}

/**
 * Receives delivery receipts and replies (GET or POST), and serves /health. A callback is
 * answered 200 only once its event is stored; anything else is answered with why not,
 * without the secret ever appearing in a log line.
 */
export class WebhookServer {
	private readonly server: Server;
	private stopping = false;
	private readonly inflight = new Set<Promise<void>>();
	private readonly refusals: RefusalLog;
	private connections = 0;
	/** Connections opened beyond the cap: their request is answered 503. */
	private readonly overCap = new WeakSet<Socket>();

	constructor(private readonly options: WebhookServerOptions) {
		this.refusals = new RefusalLog(options.log);
		this.server = createServer((req, res) => {
			const job = this.handle(req, res)
				.catch((error: Error) => {
					if (clientGone(req, error)) options.log.debug('client went away mid-request', { error });
					else options.log.error('webhook error', { error });
					if (!res.headersSent && !res.destroyed) send(res, 500, { error: 'internal error' });
				})
				.finally(() => this.inflight.delete(job));
			this.inflight.add(job);
		});
		this.server.headersTimeout = 10_000;
		this.server.requestTimeout = 30_000;
		this.server.on('connection', (socket: Socket) => {
			this.connections++;
			socket.once('close', () => this.connections--);
			if (this.connections > options.maxConnections) {
				this.overCap.add(socket);
				// Its one request is answered at once; one that sends none is not waited for long.
				socket.setTimeout(2000, () => socket.destroy());
			}
		});
	}

	async listen(): Promise<number> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.options.port, this.options.host, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		return (this.server.address() as AddressInfo).port;
	}

	/** Takes no new request; those under way finish and are answered. */
	async close(): Promise<void> {
		this.stopping = true;
		const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
		this.server.closeIdleConnections();
		await Promise.allSettled([...this.inflight]);
		this.server.closeIdleConnections();
		await closed;
		this.refusals.flush();
	}

	/** Refused, and counted in the log (RefusalLog), not logged one line each. */
	private refuse(res: ServerResponse, status: number, reason: string, body: Record<string, unknown>, fields: Record<string, unknown> = {}, close = false): void {
		this.refusals.refused(reason, { status, ...fields });
		send(res, status, body, close);
	}

	/**
	 * /ready: 200 while a callback would be answered 200, for a load balancer. /health: the
	 * same status, and which parts are degraded; its counts only for the report token
	 * (`Authorization: Bearer TOKEN`), since they tell outsiders how busy the worker is.
	 */
	private async health(req: IncomingMessage, res: ServerResponse, readyOnly: boolean): Promise<void> {
		const h = await this.options.health();
		const ok = !this.stopping && h.canTakeCallbacks;
		const status = this.stopping ? 'stopping' : !h.canTakeCallbacks ? 'down' : h.degraded.length > 0 ? 'degraded' : 'running';
		if (readyOnly) {
			send(res, ok ? 200 : 503, { ready: ok, status });
			return;
		}
		const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
		const detailed = this.options.healthToken !== undefined && bearer !== undefined && secretMatches(bearer, this.options.healthToken);
		send(res, ok ? 200 : 503, { ok, status, degraded: h.degraded, ...(detailed ? h.details : {}) });
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		if (this.overCap.has(req.socket)) {
			this.refuse(res, 503, 'too many connections', { error: 'too many connections; try again' }, { limit: this.options.maxConnections }, true);
			return;
		}
		const url = new URL(req.url ?? '/', 'http://worker');
		const method = req.method ?? 'GET';
		if ((url.pathname === '/health' || url.pathname === '/ready') && (method === 'GET' || method === 'HEAD')) {
			await this.health(req, res, url.pathname === '/ready');
			return;
		}
		const reports = this.options.reports;
		const report = reports ? await reportRoute(req, url, reports.token, reports.ledger) : undefined;
		if (report) {
			if (report.refused) this.refusals.refused(report.refused, { status: report.status });
			res.writeHead(report.status, { ...REPORT_HEADERS, 'content-type': report.type, 'content-length': Buffer.byteLength(report.body) });
			res.end(method === 'HEAD' ? undefined : report.body);
			return;
		}
		const route = readCallbackPath(url.pathname);
		if (!route) {
			this.refuse(res, 404, 'no such path', { error: 'not found' });
			return;
		}
		if (!this.options.secrets.some((secret) => secretMatches(route.secret, secret))) {
			this.refuse(res, 401, 'wrong or missing callback secret', { error: 'unknown callback URL' }, { route: route.route });
			return;
		}
		if (method !== 'GET' && method !== 'POST') {
			res.setHeader('allow', 'GET, POST');
			this.refuse(res, 405, 'callback neither GET nor POST', { error: 'callbacks are GET or POST' }, { route: route.route });
			return;
		}
		// A provider retries a 503; what it sends while we stop comes back to the next run.
		if (this.stopping) {
			send(res, 503, { error: 'the worker is stopping; try again' }, true);
			return;
		}
		let body: Buffer;
		try {
			body = method === 'POST' ? await readBody(req, this.options.maxBodyBytes) : Buffer.alloc(0);
		} catch (error) {
			if (error instanceof BodyTooLarge) {
				// The rest is read and dropped, so the sender sees the 413 rather than a reset;
				// one that keeps sending is cut off.
				req.resume();
				const cutOff = setTimeout(() => req.socket.destroy(), 5000);
				cutOff.unref();
				req.once('end', () => clearTimeout(cutOff));
				this.refuse(res, 413, 'callback body too large', { error: error.message }, { route: route.route, limit: error.limit }, true);
				return;
			}
			throw error;
		}
		const payload = callbackPayload(method, url, req.headers['content-type'], body);
		if (!payload.ok) {
			this.refuse(res, 400, 'callback body not JSON', { error: payload.error }, { route: route.route });
			return;
		}
		const parsed = parseCallback(payload.raw);
		if (!parsed.ok) {
			this.refuse(res, 400, 'not a valid callback', { error: 'not a valid callback', violations: parsed.violations }, { route: route.route });
			return;
		}
		// The secret is in every message's callback URLs, kept by the provider and by any proxy
		// on the way: a callback must also be for this worker's account.
		if (!secretMatches(parsed.event.data.AccountSid, this.options.accountSid)) {
			this.refuse(res, 401, 'callback for another account', { error: 'not a callback for this account' }, { route: route.route });
			return;
		}
		if (parsed.event.kind !== KIND[route.route]) {
			this.refuse(res, 400, 'callback sent to the URL of the other kind', { error: `a ${parsed.event.kind} sent to the ${route.route} URL` }, { route: route.route });
			return;
		}
		const key = callbackEventKey(parsed.event);
		let fresh: boolean;
		try {
			fresh = await this.options.store(key, parsed.event, Date.now());
		} catch (error) {
			this.options.log.error('callback not stored; the provider will retry', { route: route.route, error: error as Error });
			send(res, 503, { error: 'cannot store the event now' });
			return;
		}
		send(res, 200, fresh ? { ok: true } : { ok: true, duplicate: true });
		if (fresh) this.options.stored(parsed.event);
		else this.options.log.info('duplicate callback ignored', { kind: parsed.event.kind, messageSid: parsed.event.data.MessageSid });
	}
}
