import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCodes } from '../../../api';
import { fail, type ApiError } from './apiError';

/** Node's refusals before a request exists (over-long headers, a timeout, bytes that are not HTTP), as the contract's ResponseStatus. */
function refusal(code: string | undefined): ApiError {
	switch (code) {
		case 'HPE_HEADER_OVERFLOW':
			return fail(
				431,
				ErrorCodes.HeadersTooLarge,
				'The request headers are larger than the sandbox accepts (16 KB in all).',
			);
		case 'ERR_HTTP_REQUEST_TIMEOUT':
			return fail(408, ErrorCodes.FormatException, 'The request did not arrive in time.');
		default:
			return fail(400, ErrorCodes.FormatException, 'The request is not well-formed HTTP.');
	}
}

/**
 * Fastify's clientErrorHandler: such errors never reach the error handler, and fastify's
 * default answers them with a body of its own shape, where the contract wants a
 * ResponseStatus on every non-2xx.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
	if (error.code === 'ECONNRESET' || socket.destroyed) return;
	if (socket.writable) {
		const answer = refusal(error.code);
		const body = JSON.stringify(answer.body());
		socket.write(
			`HTTP/1.1 ${answer.statusCode} ${STATUS_CODES[answer.statusCode]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
		);
	}
	socket.destroy(error);
}
