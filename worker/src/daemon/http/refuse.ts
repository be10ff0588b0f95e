import type { FastifyReply } from 'fastify';
import type { HttpError } from './httpErrors';
import { sendJson } from './jsonReply';
import type { RefusalLog } from './refusalLog';

/** How a route set answers a refusal. */
export interface RefusalStyle {
	/** Counted here by reason (RefusalLog), not logged one line each; uncounted without. */
	refusals?: RefusalLog;
	/**
	 * The campaign API's `{"error": {"code", "message", ...}}`, never cached, with `scrub`
	 * taking out what the caller must not see; without it `{"error": message, ...}`.
	 */
	coded?: { scrub(json: string): string };
}

/** The one way a request is refused: by a route, a hook or the error handler alike. */
export function refuse(reply: FastifyReply, error: HttpError, style: RefusalStyle): FastifyReply {
	style.refusals?.refused(error.reason, { status: error.status, ...error.fields });
	if (!style.coded)
		return sendJson(reply, error.status, { error: error.message, ...error.details }, error.close);
	const body = { error: { code: error.code, message: error.message, ...error.details } };
	reply.code(error.status).header('cache-control', 'no-store');
	reply.header('content-type', 'application/json');
	if (error.close) reply.header('connection', 'close');
	return reply.send(style.coded.scrub(JSON.stringify(body)));
}
