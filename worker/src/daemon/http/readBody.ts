import type { IncomingMessage } from 'node:http';

export class BodyTooLarge extends Error {
	constructor(readonly limit: number) {
		super(`the body is larger than ${limit} bytes`);
	}
}

/**
 * Reads a request body up to `limit` bytes. A declared or actual size above it stops the
 * read at once: a callback is a few hundred bytes, and nothing larger is buffered.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const declared = Number(req.headers['content-length']);
		if (Number.isFinite(declared) && declared > limit) {
			reject(new BodyTooLarge(limit));
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				req.off('data', onData);
				reject(new BodyTooLarge(limit));
				return;
			}
			chunks.push(chunk);
		};
		req.on('data', onData);
		req.once('end', () => resolve(Buffer.concat(chunks)));
		req.once('error', reject);
	});
}
