import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LogFields, Logger } from '../jsonLogger';
import { dropRestOfBody } from './dropRestOfBody';
import { HttpError, httpError } from './httpErrors';
import { clientGone } from './jsonReply';
import { refuse, type RefusalStyle } from './refuse';

/** How a route set tells and answers its errors: the server's own, or a plugin's (routeErrors). */
export interface HttpErrorHandlerOptions extends RefusalStyle {
	log: Logger;
	/** The log line of a fault of ours (a 500). */
	errorLine: string;
	/** A fastify refusal of the request (by its `code` or 4xx `statusCode`) in this route set's terms; undefined: a fault of ours. */
	fastifyRefusal(error: FastifyError, request: FastifyRequest): HttpError | undefined;
	/** What the log may say of the request (a callback's path holds its secret: nothing). */
	logFields?(request: FastifyRequest): LogFields;
	/** The answer to a fault of ours; it never carries the fault's own message. */
	internal?: HttpError;
}

declare module 'fastify' {
	interface FastifyContextConfig {
		/** The route set's own error options (routeErrors); the server's without. */
		errors?: HttpErrorHandlerOptions;
	}
}

/**
 * The routes a plugin registers from here on answer their errors its way: the one handler
 * reads the options from the route's config, so a plugin sets no error handler of its own.
 */
export function routeErrors(app: FastifyInstance, errors: HttpErrorHandlerOptions): void {
	app.addHook('onRoute', (route) => {
		route.config = { ...route.config, errors };
	});
}

/**
 * The worker's one fastify error handler, set on the server's root: a client gone is logged
 * at debug; a refusal (an HttpError thrown, or fastify's own) is answered with its status
 * and counted; anything else is logged and answered 500 without its message. Each route
 * answers in its route set's terms (routeErrors), else in `server`'s.
 */
export function httpErrorHandler(server: HttpErrorHandlerOptions) {
	return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
		const options = request.routeOptions.config?.errors ?? server;
		const fields = options.logFields?.(request) ?? {};
		const gone = clientGone(request.raw, error);
		const refusal = gone
			? undefined
			: error instanceof HttpError
				? error
				: options.fastifyRefusal(error, request);
		if (refusal) {
			// The rest is read and dropped, so the sender sees the 413 rather than a reset.
			if (refusal.status === 413) await dropRestOfBody(request.raw);
			return refuse(reply, refusal, options);
		}
		if (gone) options.log.debug('client went away mid-request', { error, ...fields });
		else options.log.error(options.errorLine, { error, ...fields });
		if (!reply.sent && !reply.raw.destroyed)
			return refuse(reply, options.internal ?? httpError('INTERNAL'), { coded: options.coded });
		return undefined;
	};
}
