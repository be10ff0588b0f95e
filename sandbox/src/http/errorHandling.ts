import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCodes } from '../../../api';
import { ApiError, fail } from './apiError';
import type { KnownRoutes } from './knownRoutes';

function send(reply: FastifyReply, error: ApiError): void {
	reply.code(error.statusCode).headers(error.headers).send(error.body());
}

/** Fastify's own refusals, each turned into a 4xx with a ResponseStatus a person can act on. */
function translate(error: FastifyError): ApiError | undefined {
	switch (error.code) {
		case 'FST_ERR_CTP_BODY_TOO_LARGE':
			return fail(
				413,
				ErrorCodes.PayloadTooLarge,
				'The request body is larger than the sandbox accepts.',
			);
		case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
			return fail(
				400,
				ErrorCodes.UnsupportedMediaType,
				'Only JSON bodies are accepted: send Content-Type application/json (or application/merge-patch+json for PATCH).',
			);
		case 'FST_ERR_CTP_EMPTY_JSON_BODY':
		case 'FST_ERR_CTP_INVALID_JSON_BODY':
			return fail(
				400,
				ErrorCodes.FormatException,
				'The request body could not be decoded as JSON.',
			);
		case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
			return fail(400, ErrorCodes.FormatException, 'Content-Length does not match the body.');
	}
	if (error instanceof SyntaxError)
		return fail(400, ErrorCodes.FormatException, 'The request body could not be decoded as JSON.');
	if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
		return fail(error.statusCode, ErrorCodes.FormatException, error.message);
	}
	return undefined;
}

export function installErrorHandling(app: FastifyInstance, known: KnownRoutes): void {
	app.setErrorHandler((error: FastifyError, request, reply) => {
		if (error instanceof ApiError) return send(reply, error);
		const translated = translate(error);
		if (translated) return send(reply, translated);
		request.log.error({ err: error }, 'sandbox fault');
		send(reply, fail(500, ErrorCodes.InternalError, 'The sandbox failed to handle this request.'));
	});
	app.setNotFoundHandler((request, reply) => {
		const path = request.url.split('?')[0];
		const allowed = known.methodsFor(path);
		if (allowed.length > 0) {
			const error = fail(
				405,
				ErrorCodes.MethodNotAllowed,
				`${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}.`,
			);
			error.headers.allow = allowed.join(', ');
			return send(reply, error);
		}
		send(reply, fail(404, ErrorCodes.NotFound, `No operation at ${request.method} ${path}.`));
	});
}

/** Errors fastify raises before routing (a malformed URL, say). */
export function frameworkErrors(error: FastifyError, _request: unknown, reply: FastifyReply): void {
	send(reply, translate(error) ?? fail(400, ErrorCodes.FormatException, error.message));
}
