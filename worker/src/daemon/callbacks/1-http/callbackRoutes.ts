import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callbackEventKey, parseCallback, type CallbackEvent } from '../../../../../api';
import type { Logger } from '../../jsonLogger';
import { callbackPayload } from './callbackPayload';
import { readCallbackPath } from './callbackUrls';
import { bodyDeadline, CALLBACK_BODY_MS } from '../../http/bodyDeadline';
import { routeErrors } from '../../http/httpErrorHandler';
import { httpError } from '../../http/httpErrors';
import { sendJson } from '../../http/jsonReply';
import type { RefusalLog } from '../../http/refusalLog';
import { refuse } from '../../http/refuse';
import { secretMatches } from '../../http/secretMatches';

export interface CallbackIntakeOptions {
	/** The callback secret, and the one before it while a rotation is under way. */
	secrets: readonly string[];
	/** Callbacks must name it: the secret alone is in every message the provider keeps. */
	accountSid: string;
	maxBodyBytes: number;
	/** Durable when it resolves; false for a duplicate. */
	store(key: string, event: CallbackEvent, receivedAt: number): Promise<boolean>;
	/** Called after a new event has been stored and answered (the daemon's intake kicks its processor itself). */
	stored?(event: CallbackEvent): void;
	log: Logger;
}

interface Context {
	refusals: RefusalLog;
	/** True once the server is closing: callbacks are then answered 503, for the next run. */
	stopping(): boolean;
}

const KIND = { receipts: 'receipt', replies: 'reply' } as const;

/**
 * Delivery receipts and replies (GET or POST) at `.../callbacks/{secret}/receipts|replies`,
 * matched at the end of any path (a public URL may sit behind a proxy's prefix), and every
 * other path no route of the server took, answered 404. The secret, the method and a stop
 * are checked before any body is read; a callback is answered 200 only once its event is
 * stored. No refusal ever puts the secret in a log line.
 */
export async function callbackRoutes(
	app: FastifyInstance,
	options: CallbackIntakeOptions & Context,
): Promise<void> {
	const { refusals, log } = options;
	const style = { refusals };

	// The provider's body is read as it comes (JSON, or a form), whatever its content type says.
	app.removeAllContentTypeParsers();
	app.addContentTypeParser(
		'*',
		{ parseAs: 'buffer', bodyLimit: options.maxBodyBytes },
		(_request, body, done) => done(null, body),
	);

	app.addHook('onRequest', async (request, reply) => {
		const route = readCallbackPath(pathOf(request));
		if (!route) return refuse(reply, httpError('NO_SUCH_PATH'), style);
		const fields = { route: route.route };
		if (!options.secrets.some((secret) => secretMatches(route.secret, secret)))
			return refuse(reply, httpError('CALLBACK_SECRET', [], { fields }), style);
		if (request.method !== 'GET' && request.method !== 'POST') {
			reply.header('allow', 'GET, POST');
			return refuse(reply, httpError('CALLBACK_METHOD', [], { fields }), style);
		}
		// A provider retries a 503; what it sends while we stop comes back to the next run.
		if (options.stopping())
			return sendJson(reply, 503, { error: 'the worker is stopping; try again' }, true);
		bodyDeadline(request.raw, reply.raw, CALLBACK_BODY_MS);
		return undefined;
	});

	routeErrors(app, {
		log,
		refusals,
		errorLine: 'webhook error',
		fastifyRefusal: (error, request) => {
			const fields = { route: readCallbackPath(pathOf(request))?.route };
			if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
				return httpError('CALLBACK_TOO_LARGE', [options.maxBodyBytes], {
					fields: { ...fields, limit: options.maxBodyBytes },
				});
			// A body shorter or longer than its Content-Length, say: the sender's fault, not ours.
			if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
				return httpError('CALLBACK_UNREADABLE', [error.message], {
					status: error.statusCode,
					fields,
				});
			return undefined;
		},
	});

	const handle = async (request: FastifyRequest, reply: FastifyReply) => {
		// The onRequest hook has answered every other path.
		const route = readCallbackPath(pathOf(request))!.route;
		const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
		const payload = callbackPayload(
			request.method,
			new URL(request.url, 'http://worker'),
			request.headers['content-type'],
			body,
		);
		const fields = { route };
		if (!payload.ok)
			return refuse(reply, httpError('CALLBACK_NOT_JSON', [payload.error], { fields }), style);
		const parsed = parseCallback(payload.raw);
		if (!parsed.ok) {
			const details = { violations: parsed.violations };
			return refuse(reply, httpError('CALLBACK_INVALID', [], { fields, details }), style);
		}
		// The secret is in every message's callback URLs, kept by the provider and by any proxy
		// on the way: a callback must also be for this worker's account.
		if (!secretMatches(parsed.event.data.AccountSid, options.accountSid))
			return refuse(reply, httpError('CALLBACK_ACCOUNT', [], { fields }), style);
		if (parsed.event.kind !== KIND[route])
			return refuse(
				reply,
				httpError('CALLBACK_WRONG_KIND', [parsed.event.kind, route], { fields }),
				style,
			);
		let fresh: boolean;
		try {
			fresh = await options.store(callbackEventKey(parsed.event), parsed.event, Date.now());
		} catch (error) {
			log.error('callback not stored; the provider will retry', { route, error: error as Error });
			return sendJson(reply, 503, { error: 'cannot store the event now' });
		}
		sendJson(reply, 200, fresh ? { ok: true } : { ok: true, duplicate: true });
		if (!fresh)
			log.info('duplicate callback ignored', {
				kind: parsed.event.kind,
				messageSid: parsed.event.data.MessageSid,
			});
		// Answered already: a fault now is logged here, since fastify would only tell its own (silent) logger.
		else {
			try {
				options.stored?.(parsed.event);
			} catch (error) {
				log.error('webhook error', { error: error as Error });
			}
		}
		return reply;
	};
	// Every method at `/` but GET and HEAD, which are the dashboard's (webhookServer) or fall to `/*`.
	app.route({ method: ['DELETE', 'OPTIONS', 'PATCH', 'POST', 'PUT'], url: '/', handler: handle });
	app.all('/*', handle);
}

function pathOf(request: FastifyRequest): string {
	return new URL(request.url, 'http://worker').pathname;
}
