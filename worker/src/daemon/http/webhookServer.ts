import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { WORKER_API_PREFIX } from '../../../../api';
import type { Logger } from '../jsonLogger';
import { type ApiOptions, apiRoutes } from './apiRoutes';
import { type CallbackIntakeOptions, callbackRoutes } from '../callbacks/1-http/callbackRoutes';
import { type LinkRouteOptions, linkRoutes } from './linkRoutes';
import { bearerOf } from './bearer';
import { ConnectionCap } from './connectionCap';
import type { HealthReport } from './healthCheck';
import { readCallbackPath } from '../callbacks/1-http/callbackUrls';
import { httpErrorHandler } from './httpErrorHandler';
import { type HttpError, httpError } from './httpErrors';
import { sendJson } from './jsonReply';
import { RefusalLog } from './refusalLog';
import { refuse } from './refuse';
import { type DashboardRouteOptions, dashboardRoutes } from './dashboardRoutes';
import { secretMatches } from './secretMatches';

/** A request's line and headers must have come within this; Node answers 408 and closes. */
const HEADERS_TIMEOUT_MS = 10_000;
/** A request's body (an API upload, say) must have come within this of its headers. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The API's and the reports' paths, which leave the last share of the connections to callbacks. */
function isApiOrReport(url: string): boolean {
	return (
		url === WORKER_API_PREFIX ||
		url.startsWith(`${WORKER_API_PREFIX}/`) ||
		url.startsWith(`${WORKER_API_PREFIX}?`) ||
		/^\/campaigns(?:[/.?]|$)/.test(url) ||
		/^\/(?:\?|$)/.test(url)
	);
}

export interface WebhookServerOptions extends CallbackIntakeOptions {
	host: string;
	port: number;
	/**
	 * The process the user started listens on this port and hands over the connections it
	 * accepts (serve): the server does not listen itself.
	 */
	handedPort?: number;
	/** Open connections at once; those beyond are answered 503. */
	maxConnections: number;
	/** Open connections at once from one address; those beyond are closed at once. */
	maxConnectionsPerClient: number;
	/** GET /health and /ready; never throws for a fault it knows of. */
	health(): Promise<HealthReport>;
	/** Shows /health's details; the reports' token. */
	healthToken?: string;
	/** GET / and /campaigns: the dashboard and the campaign reports, behind the tokens; none without one. */
	reports?: Omit<DashboardRouteOptions, 'refusals' | 'notFound'>;
	/** Tracked links (`links.baseUrl`'s path): redirected and counted; none without. */
	links?: LinkRouteOptions;
	/** /api: the campaign API's route plugins, behind `server.apiToken`; every /api path is 404 without one. */
	api?: ApiOptions;
	log: Logger;
}

/**
 * The worker's HTTP server (fastify): delivery receipts and replies (callbackRoutes),
 * /health and /ready, the campaign reports, and the campaign API under /api (apiRoutes).
 * Anything refused is answered with why and counted in the log (RefusalLog), without a
 * secret ever appearing in a line.
 */
export class WebhookServer {
	private readonly app: FastifyInstance;
	private stopping = false;
	/** Requests under way, each settled when its answer is done or its connection gone. */
	private readonly inflight = new Set<Promise<void>>();
	private readonly refusals: RefusalLog;

	constructor(private readonly options: WebhookServerOptions) {
		this.refusals = new RefusalLog(options.log);
		this.app = Fastify({
			logger: false,
			bodyLimit: options.maxBodyBytes,
			requestTimeout: REQUEST_TIMEOUT_MS,
			// Node checks headersTimeout and requestTimeout this often (30 s by default): a slow request is dropped on time.
			http: { connectionsCheckingInterval: 1000 },
			// Node's own default, as before fastify (whose default is 72 s): idle connections are not kept long.
			keepAliveTimeout: 5_000,
			// The server answers during a stop itself: callbacks 503, /health and /ready `stopping`.
			return503OnClosing: false,
			// A path fastify cannot decode (`%zz`) is refused as any other: a callback's with a secret that cannot match, else no path.
			frameworkErrors: (error, request, reply) => {
				if (error.code !== 'FST_ERR_BAD_URL')
					return void this.refuse(reply, httpError('NOT_UNDERSTOOD', [error.message]));
				const route = readCallbackPath(request.url.split('?')[0])?.route;
				if (route)
					return void this.refuse(reply, httpError('CALLBACK_SECRET', [], { fields: { route } }));
				return void this.refuse(reply, httpError('NO_SUCH_PATH'));
			},
		});
		this.app.server.headersTimeout = HEADERS_TIMEOUT_MS;
		const cap = new ConnectionCap(
			this.app.server,
			options.maxConnections,
			options.maxConnectionsPerClient,
			() =>
				this.refusals.refused('too many connections from one address', {
					limit: options.maxConnectionsPerClient,
				}),
		);
		this.app.addHook('onRequest', async (request, reply) => {
			const done = new Promise<void>((resolve) => reply.raw.once('close', resolve));
			this.inflight.add(done);
			void done.then(() => this.inflight.delete(done));
			const full = { fields: { limit: cap.limit }, close: true };
			if (cap.isOver(request.raw.socket))
				return this.refuse(reply, httpError('TOO_MANY_CONNECTIONS', [], full));
			if (cap.sharedFull() && isApiOrReport(request.url))
				return this.refuse(reply, httpError('API_CONNECTIONS_FULL', [], full));
			return undefined;
		});
		// The server's one error handler; the callbacks and the API answer in their own terms through it (routeErrors).
		this.app.setErrorHandler(
			httpErrorHandler({
				log: options.log,
				refusals: this.refusals,
				errorLine: 'webhook error',
				// Fastify's own refusals of a request (a body that does not parse, say) keep their 4xx.
				fastifyRefusal: (error) =>
					error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
						? httpError('NOT_UNDERSTOOD', [error.message], { status: error.statusCode })
						: undefined,
			}),
		);
		this.app.get('/health', (request, reply) => this.health(request, reply, false));
		this.app.get('/ready', (request, reply) => this.health(request, reply, true));
		const reports = options.reports;
		if (reports)
			void this.app.register(dashboardRoutes, {
				...reports,
				refusals: this.refusals,
				notFound: (reply: FastifyReply) => this.refuse(reply, httpError('NO_SUCH_PATH')),
			});
		void this.app.register(
			apiRoutes(options.api ?? { token: undefined, routes: [] }, this.refusals),
			{ prefix: WORKER_API_PREFIX },
		);
		if (options.links) void this.app.register(linkRoutes(options.links));
		void this.app.register(callbackRoutes, {
			...options,
			refusals: this.refusals,
			stopping: () => this.stopping,
		});
	}

	async listen(): Promise<number> {
		if (this.options.handedPort !== undefined) {
			await this.app.ready();
			// What listen() would start: the checks that enforce headersTimeout and requestTimeout.
			this.app.server.emit('listening');
			return this.options.handedPort;
		}
		await this.app.listen({ port: this.options.port, host: this.options.host });
		return (this.app.server.address() as AddressInfo).port;
	}

	/** A connection the process the user started accepted (handedPort): served as one accepted here. */
	serve(socket: Socket): void {
		this.app.server.emit('connection', socket);
		socket.resume();
	}

	/** Takes no new request; those under way finish and are answered. */
	async close(): Promise<void> {
		this.stopping = true;
		const closed = this.app.close();
		// Fastify closes only a server that listens; this ends the timeout checks and closes idle connections, as a listening one's close does.
		if (this.options.handedPort !== undefined) this.app.server.close();
		await Promise.allSettled([...this.inflight]);
		// Keep-alive connections that went idle once their request was answered.
		this.app.server.closeIdleConnections();
		await closed;
		this.refusals.flush();
	}

	private refuse(reply: FastifyReply, error: HttpError): FastifyReply {
		return refuse(reply, error, { refusals: this.refusals });
	}

	/**
	 * /ready: 200 while a callback would be answered 200, for a load balancer. /health: the
	 * same status, and which parts are degraded; its counts only for the report token
	 * (`Authorization: Bearer TOKEN`), since they tell outsiders how busy the worker is.
	 */
	private async health(
		request: FastifyRequest,
		reply: FastifyReply,
		readyOnly: boolean,
	): Promise<FastifyReply> {
		const h = await this.options.health();
		const ok = !this.stopping && h.canTakeCallbacks;
		const status = this.stopping
			? 'stopping'
			: !h.canTakeCallbacks
				? 'down'
				: h.degraded.length > 0
					? 'degraded'
					: 'running';
		if (readyOnly) return sendJson(reply, ok ? 200 : 503, { ready: ok, status });
		const bearer = bearerOf(request.headers.authorization);
		const detailed =
			this.options.healthToken !== undefined &&
			bearer !== undefined &&
			secretMatches(bearer, this.options.healthToken);
		return sendJson(reply, ok ? 200 : 503, {
			ok,
			status,
			degraded: h.degraded,
			...(detailed ? h.details : {}),
		});
	}
}
