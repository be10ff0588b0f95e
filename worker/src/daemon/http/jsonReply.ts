import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';

/** Answers with a JSON body; `close` ends the connection after it (a refusal whose sender should not stay). */
export function sendJson(
	reply: FastifyReply,
	status: number,
	body: unknown,
	close = false,
): FastifyReply {
	reply.code(status).header('content-type', 'application/json');
	if (close) reply.header('connection', 'close');
	return reply.send(JSON.stringify(body));
}

/**
 * An error that only says the client went away: nothing for anyone to act on. Its
 * connection is the sign (a request is also `destroyed` once its body has been read).
 */
export function clientGone(req: IncomingMessage, error: Error): boolean {
	const code = (error as NodeJS.ErrnoException).code;
	return (
		req.socket.destroyed ||
		// Node's `aborted` (a body cut off) carries ECONNRESET.
		code === 'ECONNRESET' ||
		code === 'ECONNABORTED' ||
		code === 'EPIPE'
	);
}
