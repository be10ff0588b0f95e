import type { IncomingMessage } from 'node:http';

/**
 * After a body too large was refused: the rest is read and dropped, so the sender sees the
 * 413 rather than a reset; one that keeps sending for 5 s more is cut off.
 */
export function dropRestOfBody(req: IncomingMessage): void {
	req.resume();
	const cutOff = setTimeout(() => req.socket.destroy(), 5000);
	cutOff.unref();
	req.once('end', () => clearTimeout(cutOff));
}
