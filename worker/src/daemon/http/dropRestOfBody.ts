import type { IncomingMessage } from 'node:http';

/**
 * After a body too large was refused: the rest is read and dropped, and the refusal is sent
 * once it has all come (awaited), so the sender sees the 413 rather than a reset: a
 * connection closed while a client still writes breaks its upload (EPIPE) before it reads
 * any answer. One that keeps sending for 5 s more is cut off.
 */
export function dropRestOfBody(req: IncomingMessage): Promise<void> {
	if (req.complete || req.destroyed) return Promise.resolve();
	req.resume();
	return new Promise((resolve) => {
		const cutOff = setTimeout(() => {
			req.socket.destroy();
			resolve();
		}, 5000);
		cutOff.unref();
		const done = () => {
			clearTimeout(cutOff);
			resolve();
		};
		req.once('end', done);
		req.once('close', done);
	});
}
