import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A callback is a few hundred bytes: one whose body has not all come within this is no
 * provider's, and is not let hold a connection until the server's request timeout.
 */
export const CALLBACK_BODY_MS = 5000;

/** Answers 408 and closes the connection if the request's body has not all come within `ms`. */
export function bodyDeadline(req: IncomingMessage, res: ServerResponse, ms: number): void {
	if (req.complete) return;
	const timer = setTimeout(() => {
		if (req.complete || req.socket.destroyed) return;
		const socket = req.socket;
		if (res.headersSent) return void socket.destroy();
		socket.end(
			'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
			() => socket.destroy(),
		);
	}, ms);
	timer.unref();
	const clear = () => clearTimeout(timer);
	req.once('end', clear);
	res.once('close', clear);
}
