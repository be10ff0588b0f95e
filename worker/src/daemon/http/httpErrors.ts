import { format } from 'node:util';
import { WORKER_API_ERROR_STATUS, type WorkerApiErrorCode } from '../../../../api';

/**
 * The worker's HTTP refusals, as fastify's lib/errors.js: a code, the status it is answered
 * with, the reason it is counted under in the log (RefusalLog), and its message template
 * (`%s`, `%d`, filled as util.format). Handlers and tests match a refusal by `code`, never
 * by its words. The campaign API's codes (api/workerApi) answer with their own statuses.
 */
export const HTTP_ERRORS = {
	NO_SUCH_PATH: [404, 'no such path', 'not found'],
	NOT_UNDERSTOOD: [400, 'request not understood', '%s'],
	TOO_MANY_CONNECTIONS: [503, 'too many connections', 'too many connections; try again'],
	API_CONNECTIONS_FULL: [
		503,
		'too many connections for the API and reports',
		'too many connections; try again',
	],
	CALLBACK_SECRET: [401, 'wrong or missing callback secret', 'unknown callback URL'],
	CALLBACK_METHOD: [405, 'callback neither GET nor POST', 'callbacks are GET or POST'],
	CALLBACK_TOO_LARGE: [413, 'callback body too large', 'the body is larger than %d bytes'],
	CALLBACK_UNREADABLE: [400, 'callback body not readable', '%s'],
	CALLBACK_NOT_JSON: [400, 'callback body not JSON', '%s'],
	CALLBACK_INVALID: [400, 'not a valid callback', 'not a valid callback'],
	CALLBACK_ACCOUNT: [401, 'callback for another account', 'not a callback for this account'],
	CALLBACK_WRONG_KIND: [
		400,
		'callback sent to the URL of the other kind',
		'a %s sent to the %s URL',
	],
	INTERNAL: [500, 'internal error', 'internal error'],
} as const satisfies Record<string, readonly [number, string, string]>;

export type HttpErrorCode = keyof typeof HTTP_ERRORS | WorkerApiErrorCode;

export interface HttpErrorOptions {
	/** The status when it is not the code's own: a fastify refusal keeps its 4xx. */
	status?: number;
	/** Beside the message in the body (`violations`, the API's `field`). */
	details?: Record<string, unknown>;
	/** Beside the reason in the refusal log (`route`, `limit`); never a secret. */
	fields?: Record<string, unknown>;
	/** End the connection after the answer: a sender that should not stay (a 413's by default). */
	close?: boolean;
}

/** A refusal of a request, answered with its status by the one handler (httpErrorHandler). */
export class HttpError extends Error {
	readonly status: number;
	readonly reason: string;
	readonly details: Record<string, unknown>;
	readonly fields: Record<string, unknown>;
	readonly close: boolean;

	constructor(
		readonly code: HttpErrorCode,
		message: string,
		options: HttpErrorOptions = {},
	) {
		super(message);
		const entry = code in HTTP_ERRORS ? HTTP_ERRORS[code as keyof typeof HTTP_ERRORS] : undefined;
		this.status =
			options.status ?? entry?.[0] ?? WORKER_API_ERROR_STATUS[code as WorkerApiErrorCode];
		this.reason = entry?.[1] ?? `campaign API: ${code}`;
		this.details = options.details ?? {};
		this.fields = options.fields ?? {};
		// A sender of too large a body is not kept: its connection may still be mid-upload.
		this.close = options.close ?? this.status === 413;
	}
}

/** The catalogue's refusal `code`, its template filled with `args`. */
export function httpError(
	code: keyof typeof HTTP_ERRORS,
	args: readonly (string | number)[] = [],
	options: HttpErrorOptions = {},
): HttpError {
	return new HttpError(code, format(HTTP_ERRORS[code][2], ...args), options);
}
