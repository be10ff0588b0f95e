import { bearerOf } from './bearer';
import type {
	FastifyInstance,
	FastifyPluginAsync,
	FastifyReply,
	FastifyRequest,
	onRequestAsyncHookHandler,
} from 'fastify';
import type { WorkerApiErrorBody } from '../../../../api';
import { sendJson } from './jsonReply';
import type { RefusalLog } from './refusalLog';
import { secretMatches } from './secretMatches';

/**
 * A plugin of the campaign API, registered under /api (its route `/campaigns` answers
 * `/api/campaigns`) behind the API token. It keeps its own content types, body limits,
 * schemas and error options (routeErrors) in its own fastify context.
 */
export type ApiRoutes = FastifyPluginAsync;

export interface ApiOptions {
	/** `server.apiToken`; without it every /api path is 404. */
	token: string | undefined;
	routes: readonly ApiRoutes[];
}

function apiError(code: 'unauthorized' | 'not_found', message: string): WorkerApiErrorBody {
	return { error: { code, message } };
}

/**
 * An onRequest hook that lets through only `Authorization: Bearer <token>`, compared in
 * constant time; anything else is answered 401 with `WWW-Authenticate: Bearer`.
 */
export function bearerToken(
	token: string,
	refused: (reason: string) => void,
): onRequestAsyncHookHandler {
	return async (request: FastifyRequest, reply: FastifyReply) => {
		const bearer = bearerOf(request.headers.authorization);
		if (bearer !== undefined && secretMatches(bearer, token)) return undefined;
		refused('wrong or missing API token');
		reply.header('www-authenticate', 'Bearer');
		return sendJson(
			reply,
			401,
			apiError(
				'unauthorized',
				"the campaign API needs the worker's API token: Authorization: Bearer <server.apiToken>",
			),
		);
	};
}

/**
 * /api and everything under it: the campaign API's route plugins behind the token, or, with
 * no token in the config, 404 for every path (the API is off, and says no more).
 */
export function apiRoutes(options: ApiOptions, refusals: RefusalLog): FastifyPluginAsync {
	return async (api: FastifyInstance) => {
		const { token } = options;
		if (token === undefined) {
			api.addHook('onRequest', async (_request, reply) => {
				refusals.refused('campaign API asked for, but no apiToken is set', { status: 404 });
				return sendJson(
					reply,
					404,
					apiError(
						'not_found',
						'this worker serves no campaign API: its config sets no server.apiToken',
					),
				);
			});
		} else {
			api.addHook(
				'onRequest',
				bearerToken(token, (reason) => refusals.refused(reason, { status: 401 })),
			);
			for (const routes of options.routes) await api.register(routes);
		}
		// Paths no plugin has: after the token check, so an outsider learns nothing from them, and before any body is read.
		const notFound = async (request: FastifyRequest, reply: FastifyReply) =>
			sendJson(
				reply,
				404,
				apiError(
					'not_found',
					`no route ${request.method} ${request.url.split('?')[0]} in the campaign API (GET /api/openapi.json lists them)`,
				),
			);
		api.all('/', { onRequest: notFound }, notFound);
		api.all('/*', { onRequest: notFound }, notFound);
	};
}
