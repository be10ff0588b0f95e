import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Counts the server's open connections. One opened beyond the cap is kept just long enough
 * for its request to be answered 503 (a reset would look like a network fault to the
 * sender, and the provider retries a 503); one that sends no request is not waited for long.
 */
export class ConnectionCap {
	private open = 0;
	private readonly over = new WeakSet<Socket>();

	constructor(
		server: Server,
		readonly limit: number,
	) {
		server.on('connection', (socket: Socket) => {
			this.open++;
			socket.once('close', () => this.open--);
			if (this.open > limit) {
				this.over.add(socket);
				socket.setTimeout(2000, () => socket.destroy());
			}
		});
	}

	/** Whether this connection was opened beyond the cap. */
	isOver(socket: Socket): boolean {
		return this.over.has(socket);
	}
}
